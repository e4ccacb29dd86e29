// resultWarnings reads each capability's summary shape; the summaries here are written by hand in the shapes the
// capabilities write (docs/formats.md), with the counts that make each case.
import { describe, expect, it } from "vitest";
import { RESULT_WARNINGS_KEY, resultWarnings, withResultWarnings } from "./result-warnings.js";

/** An extract-like summary: `read` packets, `decoded` of them in `sessions` sessions. */
function sessionSummary(read: number, decoded: number, sessions: number, extra: Record<string, unknown> = {}) {
  return { complete: true, damage: null, packets: { read, decoded }, sessions: { total: sessions }, ...extra };
}

const codes = (summary: Record<string, unknown>) => resultWarnings(summary).map((w) => w.code);

describe("resultWarnings", () => {
  it("finds nothing suspect in a complete capture of several multi-packet sessions", () => {
    expect(resultWarnings(sessionSummary(136, 126, 34))).toEqual([]);
  });

  it("says a damaged input's damage, also for a job over several captures", () => {
    const single = sessionSummary(22, 20, 5, {
      complete: false,
      damage: { offset: 3404, message: "cut.pcap: damaged capture at byte 3404 (after 22 packets): truncated" },
    });
    expect(resultWarnings(single)).toEqual([
      {
        code: "input-damaged",
        message:
          "The input is damaged (cut.pcap: damaged capture at byte 3404 (after 22 packets): truncated): the outputs hold only the packets before the damage.",
      },
    ]);
    const combined = sessionSummary(40, 30, 6, {
      complete: false,
      damage: [{ capture: "b.pcap", damage: { offset: 10, message: "b.pcap: damaged capture at byte 10" } }],
    });
    expect(resultWarnings(combined)[0].message).toContain("(b.pcap: damaged capture at byte 10)");
  });

  it("warns of no sessions, naming the packets read, and of a capture without packets", () => {
    expect(resultWarnings(sessionSummary(10, 0, 0))).toEqual([
      {
        code: "no-sessions",
        message:
          "No sessions: no packet of the capture is TCP or UDP over IP (10 packets read), so the outputs hold no rows.",
      },
    ]);
    expect(resultWarnings(sessionSummary(0, 0, 0))[0].message).toBe("No sessions: the capture holds no packets.");
  });

  it("warns when every session has one packet: as many decoded packets as sessions", () => {
    expect(codes(sessionSummary(12, 10, 10))).toEqual(["single-packet-sessions"]);
    expect(codes(sessionSummary(12, 11, 10))).toEqual([]);
  });

  it("says that no alert matched (multiclass), and not also that there is one class", () => {
    const labels = {
      method: "alerts",
      alertsRead: 253,
      matchedAlerts: 0,
      sessions: { 0: 34, 1: 0 },
      classes: { benign: 34 },
    };
    expect(resultWarnings(sessionSummary(136, 126, 34, { labels }))).toEqual([
      {
        code: "no-alerts-matched",
        message:
          "None of the 253 alerts read matched a session of the capture, so every session is labelled benign: are the alerts from this capture?",
      },
    ]);
  });

  it("says one class when alerts matched but all sessions share a class, or no alert was read", () => {
    const matched = {
      method: "alerts",
      alertsRead: 5,
      matchedAlerts: 5,
      sessions: { 0: 0, 1: 3 },
      classes: { "trojan-activity": 3 },
    };
    expect(resultWarnings(sessionSummary(30, 30 - 1, 3, { labels: matched }))).toEqual([
      {
        code: "single-class",
        message: 'All 3 sessions have the same label ("trojan-activity"): the dataset has a single class.',
      },
    ]);
    const none = {
      method: "alerts",
      alertsRead: 0,
      matchedAlerts: 0,
      sessions: { 0: 4, 1: 0 },
      classes: { benign: 4 },
    };
    expect(codes(sessionSummary(30, 20, 4, { labels: none }))).toEqual(["single-class"]);
    const two = {
      method: "alerts",
      alertsRead: 5,
      matchedAlerts: 5,
      sessions: { 0: 1, 1: 3 },
      classes: { benign: 1, "trojan-activity": 3 },
    };
    expect(codes(sessionSummary(30, 20, 4, { labels: two }))).toEqual([]);
  });

  it("says that no attack 5-tuple matched (binary), naming the attack capture", () => {
    const labels = {
      method: "tuples",
      attackFile: "log4shell.pcap",
      attackTuples: 4,
      attackTuplesWithoutSession: 4,
      sessions: { 0: 34, 1: 0 },
    };
    expect(resultWarnings(sessionSummary(136, 126, 34, { labels }))).toEqual([
      {
        code: "no-attacks-matched",
        message:
          "None of the 4 attack 5-tuples of log4shell.pcap matched a session of the capture, so every session is labelled 0: is it the attack capture merged into this one (addresses remapped?)",
      },
    ]);
    const some = { ...labels, attackTuplesWithoutSession: 1, sessions: { 0: 31, 1: 3 } };
    expect(codes(sessionSummary(136, 126, 34, { labels: some }))).toEqual([]);
  });

  it("says when a merge's injected packets made no attack session (provenance labels)", () => {
    const labels = {
      method: "provenance",
      attackPacketsInProvenance: 35,
      attackPacketsInSessions: 0,
      sessions: { 0: 34, 1: 0 },
    };
    expect(codes(sessionSummary(171, 126, 34, { labels }))).toEqual(["no-attack-sessions"]);
    const labelled = { ...labels, attackPacketsInSessions: 35, sessions: { 0: 34, 1: 4 } };
    expect(codes(sessionSummary(171, 161, 38, { labels: labelled }))).toEqual([]);
  });

  it("says no sessions of a sanitize run, and nothing of one that found sessions", () => {
    const sanitize = (clean: number, attacks: number, input: number) => ({
      complete: true,
      packets: { input, clean: input, attacks: 0 },
      sessions: { clean, attacks },
      alerts: { total: 0 },
    });
    expect(codes(sanitize(0, 0, 4))).toEqual(["no-sessions"]);
    expect(codes(sanitize(3, 1, 40))).toEqual([]);
  });

  it("says when a merge's attack capture contributed no packets", () => {
    const merge = (attacks: number) => ({
      packets: 136 + attacks,
      inputs: { background: { file: "web.pcap", packets: 136 }, attacks: { file: "empty.pcap", packets: attacks } },
    });
    expect(resultWarnings(merge(0))).toEqual([
      {
        code: "no-attack-packets",
        message: "The attack capture empty.pcap contributed no packets: the merged capture is the background alone.",
      },
    ]);
    expect(resultWarnings(merge(35))).toEqual([]);
  });
});

describe("withResultWarnings", () => {
  it("lists the warnings under resultWarnings, and leaves the key out when there are none", () => {
    const suspect = withResultWarnings(sessionSummary(10, 0, 0));
    expect(suspect[RESULT_WARNINGS_KEY]).toEqual([expect.objectContaining({ code: "no-sessions" })]);
    const fine = withResultWarnings({ ...sessionSummary(136, 126, 34), [RESULT_WARNINGS_KEY]: [{ code: "x" }] });
    expect(RESULT_WARNINGS_KEY in fine).toBe(false);
  });
});

describe("resultWarnings of a dataset (the card's built record)", () => {
  /** A built record in the shape the dataset card writes (docs/datasets.md), with nothing suspect. */
  const built = (change: Record<string, unknown> = {}) => ({
    inputs: [
      { name: "mon.pcap", complete: true, damage: null, sessions: 120 },
      { name: "tue.pcap", complete: true, damage: null, sessions: 80 },
    ],
    rows: 200,
    classes: { benign: 150, dos: 50 },
    splits: [
      { name: "train", rows: 140, byClass: { benign: 105, dos: 35 } },
      { name: "test", rows: 60, byClass: { benign: 45, dos: 15 } },
    ],
    splitWarnings: [],
    labels: {
      conflicts: { "schedule>alerts": 3 },
      sources: {
        alerts: { files: [{ alertFile: "eve.json", alertsRead: 40, matchedAlerts: 31, unmatchedAlerts: 9 }] },
      },
    },
    audit: {
      flagged: ["srcIP", "dstPrt"],
      rows: [
        { column: "srcIP", balancedAccuracy: 0.55, reason: "identifier" },
        { column: "dstPrt", balancedAccuracy: 0.97, reason: "score+identifier" },
        { column: "flowDuration", balancedAccuracy: 0.71, reason: null },
      ],
    },
    caveats: ["3 sessions matched both schedule and alerts with different classes; schedule decided."],
    ...change,
  });
  const datasetCodes = (change: Record<string, unknown>) => resultWarnings(built(change)).map((w) => w.code);

  it("does not warn of conflicts, identifiers or some unmatched alerts", () => {
    expect(resultWarnings(built())).toEqual([]);
  });

  it("warns of a damaged input and of an input without sessions, naming it", () => {
    const inputs = [
      { name: "mon.pcap", complete: false, damage: { offset: 3404, message: "truncated record" }, sessions: 120 },
      { name: "tue.pcap", complete: true, damage: null, sessions: 0 },
    ];
    const warnings = resultWarnings(built({ inputs }));
    expect(warnings.map((w) => w.code)).toEqual(["input-damaged", "no-sessions"]);
    expect(warnings[0].message).toContain("mon.pcap is damaged (truncated record)");
    expect(warnings[1].message).toBe("tue.pcap contributed no session to the dataset.");
  });

  it("warns of one class, of an alert file or attack capture that matched nothing, of a split off target", () => {
    expect(datasetCodes({ classes: { benign: 200, dos: 0 } })).toContain("single-class");
    const sources = {
      alerts: { files: [{ alertFile: "other.json", alertsRead: 253, matchedAlerts: 0, unmatchedAlerts: 253 }] },
      tuples: { captures: [{ capture: "dos.pcap", tuples: 4, tuplesWithoutSession: 4 }] },
    };
    expect(datasetCodes({ labels: { conflicts: {}, sources } })).toEqual(["no-alerts-matched", "no-attacks-matched"]);
    expect(datasetCodes({ splitWarnings: ["host split: test holds 61 % of the sessions, not 30 %"] })).toEqual([
      "split-off-target",
    ]);
  });

  it("warns of a class missing from a split and of a non-identifier feature flagged by its score", () => {
    const splits = [
      { name: "train", rows: 140, byClass: { benign: 90, dos: 50 } },
      { name: "test", rows: 60, byClass: { benign: 60, dos: 0 } },
    ];
    const missing = resultWarnings(built({ splits }));
    expect(missing.map((w) => w.code)).toEqual(["class-missing-from-split"]);
    expect(missing[0].message).toMatch(/^Split test has no session of class dos/);
    const rows = [{ column: "minTTL", balancedAccuracy: 0.99, reason: "score" }];
    const leaky = resultWarnings(built({ audit: { flagged: ["minTTL"], rows } }));
    expect(leaky.map((w) => w.code)).toEqual(["leaky-feature"]);
    expect(leaky[0].message).toContain("(minTTL)");
  });
});

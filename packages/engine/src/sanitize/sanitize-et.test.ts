// sanitize with the ET Open rules through a loaded Suricata (SuricataDaemons) on three attack captures merged into one:
// the alerts are those Suricata 7.0.10 raised on each capture, the clean capture raises none, and a second run on the
// warm daemon loads nothing again and writes the same outputs.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath, fixturesDir } from "../../../../test/helpers/fixtures.js";
import { SuricataDaemons } from "../suricata/suricata-daemons.js";
import { sanitize } from "./sanitize.js";
import { readPackets, splitDifference } from "./sanitize-testing.js";

const parts = ["eternalblue-scan.pcap", "log4shell-exploit.pcap", "dvwa-web-attacks.pcapng"];
const work = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sanitize-et-"));
const out = path.join(work, "out");
fs.mkdirSync(out);
const daemons = new SuricataDaemons();
afterAll(async () => {
  await daemons.stop();
  fs.rmSync(work, { recursive: true, force: true });
});
// The repository keeps the rules gzip-compressed (a tenth of their size) and each capture once: the test
// unpacks the rules and merges the three captures by time, as Suricata 7.0.10's observations were made.
const ruleFiles = [path.join(work, "et-open-2024-04-21.rules")];
fs.writeFileSync(
  ruleFiles[0],
  zlib.gunzipSync(fs.readFileSync(path.join(fixturesDir, "sanitize/et-open/et-open-2024-04-21.rules.gz"))),
);
const capture = path.join(work, "et-mix.pcap");
execFileSync("mergecap", ["-F", "pcap", "-w", capture, ...parts.map(fixturePath)]);

describe("sanitize with ET Open", () => {
  it("raises the alerts Suricata 7.0.10 raised on each capture and leaves a clean capture without alerts", async () => {
    const result = await sanitize(capture, { ruleFiles, verifyPasses: 1, daemons }, { outDir: out });
    const summary = result.summary as {
      passes: { capture: string; alerts: number }[];
      verified: boolean;
      alerts: { bySignature: { sid: number; alerts: number }[] };
    };
    const expected: Record<string, number> = {};
    for (const part of parts) {
      const observed = JSON.parse(
        fs.readFileSync(path.join(fixturesDir, "sanitize/et-observed", `${part}.alerts.json`), "utf8"),
      ) as { alerts_by_sid: Record<string, { count: number }> };
      for (const [sid, { count }] of Object.entries(observed.alerts_by_sid))
        expected[sid] = (expected[sid] ?? 0) + count;
    }
    const got = Object.fromEntries(summary.alerts.bySignature.map((s) => [String(s.sid), s.alerts]));
    expect(got).toEqual(expected);
    // The second Suricata run read the final clean capture with the same rules.
    expect(summary.passes.map((p) => [p.capture, p.alerts])).toEqual([
      ["input", 22],
      ["clean", 0],
    ]);
    expect(summary.verified).toBe(true);
    const [input, clean, attacks] = await Promise.all(
      [capture, path.join(out, "clean.pcap"), path.join(out, "attacks.pcap")].map(readPackets),
    );
    expect(splitDifference(input, clean, attacks)).toBe("");
    expect(clean.length).toBeGreaterThan(0);
    expect(attacks.length).toBeGreaterThan(0);

    const again = path.join(work, "again");
    fs.mkdirSync(again);
    await sanitize(capture, { ruleFiles, verifyPasses: 1, daemons }, { outDir: again });
    for (const name of ["clean.pcap", "attacks.pcap", "alerts.u2"]) {
      expect(fs.readFileSync(path.join(again, name)).equals(fs.readFileSync(path.join(out, name)))).toBe(true);
    }
    // The second run loaded nothing again: the daemon started its engine once.
    const [daemon] = await daemons.running();
    expect(fs.readFileSync(daemon.logFile, "utf8").match(/Engine started/g)).toHaveLength(1);
  }, 600_000);
});

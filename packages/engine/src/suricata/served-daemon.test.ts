// A served Suricata (serveDaemon) and the runs that scan with it (servedDaemonSource), with the real Suricata: what a
// mismatch is told as, and a served daemon that hangs during a run leaves that run to a Suricata of its own.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { sanitize } from "../sanitize/sanitize.js";
import { serveDaemon, servedDaemonSource, setupDifference } from "./served-daemon.js";
import { type DaemonSetup, daemonKey } from "./suricata-daemon.js";
import type { DaemonSource } from "./suricata-daemons.js";

const capture = fixturePath("sanitize/suricata-verify/dcerpc__zerologon/input.pcap");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-served-test-"));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));
const rules = path.join(work, "test.rules");
fs.copyFileSync(fixturePath("sanitize/suricata-verify/dcerpc__zerologon/test.rules"), rules);
const other = path.join(work, "other.rules");
fs.writeFileSync(other, 'alert tcp any any -> any any (msg:"x"; sid:1; rev:1;)\n');
const classification = "/etc/suricata/classification.config";
const fail = (why: string) => {
  throw new Error(`the served daemon was declined: ${why}`);
};
const setup = (change: Partial<DaemonSetup> = {}): DaemonSetup => ({
  ruleFiles: [rules],
  classificationFile: classification,
  homeNet: "any",
  externalNet: "any",
  runmode: "single",
  ...change,
});

describe("a served Suricata", () => {
  it("says in words what differs between its setup and a run's", () => {
    const served = daemonKey(setup());
    expect(setupDifference(served, daemonKey(setup()))).toBe("");
    expect(setupDifference(served, daemonKey(setup({ ruleFiles: [rules, other] })))).toBe(
      `is loaded with other rules files (${rules}), not this run's (${rules}, ${other})`,
    );
    expect(setupDifference(served, daemonKey(setup({ classificationFile: other })))).toBe(
      `uses the classification file ${classification}, not this run's ${other}`,
    );
    expect(setupDifference(served, daemonKey(setup({ runmode: "autofp" })))).toBe(
      "runs with run mode single, not this run's autofp",
    );
    expect(setupDifference(served, daemonKey(setup({ suricataPath: "/opt/suricata" })))).toBe(
      "runs with Suricata program suricata, not this run's /opt/suricata",
    );
    expect(setupDifference("{}", daemonKey(setup()))).toMatch(/^was started by another version of Tracemill/);
    const edited = path.join(work, "edited.rules");
    fs.copyFileSync(rules, edited);
    const before = daemonKey(setup({ ruleFiles: [edited] }));
    fs.appendFileSync(edited, "# one more line\n");
    expect(setupDifference(before, daemonKey(setup({ ruleFiles: [edited] })))).toBe(
      `loaded ${edited} before it changed (its size or time differs now)`,
    );
  });

  it("scans of runs made at once through one served daemon take turns, with a one-shot run's outputs", async () => {
    const served = await serveDaemon(setup(), { socket: path.join(work, "turns.sock") });
    try {
      const oneShot = path.join(work, "turns-one-shot");
      fs.mkdirSync(oneShot);
      await sanitize(capture, { ruleFiles: [rules] }, { outDir: oneShot });
      // Each run with a source of its own, as two processes would have; when each held the daemon.
      const spans: { start: number; end: number }[] = [];
      const run = async (name: string) => {
        const out = path.join(work, name);
        fs.mkdirSync(out);
        const span = { start: 0, end: 0 };
        spans.push(span);
        const source = servedDaemonSource(served.socket);
        const timed: DaemonSource = {
          async acquire(wanted, options) {
            const lease = await source.acquire(wanted, options);
            span.start = performance.now();
            return lease;
          },
          async release(lease, broken) {
            span.end = performance.now();
            await source.release(lease, broken);
          },
        };
        await sanitize(
          capture,
          { ruleFiles: [rules], daemons: timed, onDaemonDeclined: (why) => fail(why) },
          { outDir: out },
        );
        return out;
      };
      const outs = await Promise.all([run("turns-a"), run("turns-b")]);
      for (const out of outs) {
        for (const name of ["clean.pcap", "attacks.pcap", "alerts.u2"]) {
          expect(fs.readFileSync(path.join(out, name)).equals(fs.readFileSync(path.join(oneShot, name)))).toBe(true);
        }
      }
      const [first, second] = [...spans].sort((a, b) => a.start - b.start);
      expect(first.end).toBeGreaterThan(0);
      expect(second.start).toBeGreaterThanOrEqual(first.end);
    } finally {
      await served.stop();
    }
  }, 60_000);

  it("a daemon that hangs during a run leaves it to a Suricata of its own, with the same outputs", async () => {
    const served = await serveDaemon(setup(), { socket: path.join(work, "s.sock") });
    const declined: string[] = [];
    let frozen = false;
    try {
      const oneShot = path.join(work, "one-shot");
      fs.mkdirSync(oneShot);
      await sanitize(capture, { ruleFiles: [rules] }, { outDir: oneShot });
      const out = path.join(work, "out");
      fs.mkdirSync(out);
      const result = await sanitize(
        capture,
        {
          ruleFiles: [rules],
          daemons: servedDaemonSource(served.socket, { commandTimeoutMs: 1000 }),
          onDaemonDeclined: (why) => declined.push(why),
        },
        {
          outDir: out,
          onProgress: ({ stage }) => {
            // Frozen as the scan starts: its capture is not taken, and nothing answers.
            if (!frozen && stage === "scanning with Suricata") {
              frozen = true;
              process.kill(served.daemon.pid, "SIGSTOP");
            }
          },
        },
      );
      expect(frozen).toBe(true);
      expect(declined).toEqual([`the Suricata served at ${served.socket} stopped answering during the scan`]);
      expect((result.summary as { alerts: { total: number } }).alerts.total).toBe(22);
      for (const name of ["clean.pcap", "attacks.pcap", "alerts.u2"]) {
        expect(fs.readFileSync(path.join(out, name)).equals(fs.readFileSync(path.join(oneShot, name)))).toBe(true);
      }
      // The served daemon read nothing: its log has no file read.
      expect(fs.readFileSync(served.daemon.logFile, "utf8")).not.toMatch(/read 1 file/);
    } finally {
      await served.stop();
    }
    expect(fs.existsSync(served.socket)).toBe(false);
    expect(fs.existsSync(served.daemon.dir)).toBe(false);
  }, 60_000);
});

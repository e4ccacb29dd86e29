// sanitize through loaded Suricatas (SuricataDaemons) with the real Suricata: the same outputs as a one-shot run, a
// killed daemon restarted and the run done again once (then a failure with Suricata's last lines), a frozen (hung)
// daemon replaced after the command timeout and the run done again, a cancel mid-scan that leaves nothing behind, and
// no Suricata left in the process table once the daemons (or their owner) are gone.
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../core/src/testing/index.js";
import type { DaemonLease } from "../suricata/suricata-daemon.js";
import { type DaemonSource, SuricataDaemons } from "../suricata/suricata-daemons.js";
import { sanitize } from "./sanitize.js";

const capture = fixturePath("sanitize/suricata-verify/dcerpc__zerologon/input.pcap");
const ruleFiles = [fixturePath("sanitize/suricata-verify/dcerpc__zerologon/test.rules")];
// Daemons and sanitize put their directories in the temporary directory: a private one shows what is left behind.
const work = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-daemon-test-"));
const tmp = path.join(work, "tmp");
fs.mkdirSync(tmp);
const savedTmp = process.env.TMPDIR;
beforeAll(() => {
  process.env.TMPDIR = tmp;
});
afterAll(() => {
  process.env.TMPDIR = savedTmp;
  fs.rmSync(work, { recursive: true, force: true });
});

let outputs = 0;
function outDir(): string {
  const dir = path.join(work, `out-${++outputs}`);
  fs.mkdirSync(dir);
  return dir;
}

/** Suricata processes whose command line names `text` (a daemon's directory), from the process table. */
function suricataProcesses(text: string): string[] {
  return execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => /^\s*\d+ (\S*\/)?suricata /.test(line) && line.includes(text));
}

/**
 * 200 000 packets in 1 000 sessions: Suricata takes a second or more on them. A thousand built, then repeated 200
 * times, each copy 10 s later. Written once.
 */
function bigCapture(): string {
  const big = path.join(work, "big.pcap");
  if (fs.existsSync(big)) return big;
  const packets = [];
  for (let i = 0; i < 1000; i++) {
    const segment = tcp({ srcPort: 40_000 + i, dstPort: 80, payload: 200 });
    const frame = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, segment));
    packets.push(capturedPacket(frame, { linkType: 1, tsSec: 1_700_000_000, tsNsec: i * 1000 }));
  }
  const template = pcapFile(packets);
  const records = template.subarray(24);
  const file = fs.openSync(big, "w");
  fs.writeSync(file, template.subarray(0, 24));
  const recordBytes = records.length / 1000;
  for (let copy = 0; copy < 200; copy++) {
    const view = new DataView(records.buffer, records.byteOffset, records.length);
    for (let r = 0; r < 1000; r++) view.setUint32(r * recordBytes, 1_700_000_000 + copy * 10, true);
    fs.writeSync(file, records);
  }
  fs.closeSync(file);
  return big;
}

const withoutFlowIds = (text: string) => text.replace(/"flow_id":\d+,/g, "");

describe("sanitize with loaded Suricatas", () => {
  it("writes what a one-shot run writes, and a second run neither starts nor loads anything", async () => {
    const oneShot = outDir();
    const expected = await sanitize(capture, { ruleFiles }, { outDir: oneShot });
    const daemons = new SuricataDaemons();
    try {
      const warm = [outDir(), outDir()];
      const stages: string[][] = [[], []];
      for (const [i, dir] of warm.entries()) {
        await sanitize(capture, { ruleFiles, daemons }, { outDir: dir, onProgress: (p) => stages[i].push(p.stage) });
      }
      for (const dir of warm) {
        for (const name of ["clean.pcap", "attacks.pcap", "alerts.u2"]) {
          expect(fs.readFileSync(path.join(dir, name)).equals(fs.readFileSync(path.join(oneShot, name)))).toBe(true);
        }
        // Flow ids come from a hash seeded per Suricata process.
        expect(withoutFlowIds(fs.readFileSync(path.join(dir, "eve.json"), "utf8"))).toBe(
          withoutFlowIds(fs.readFileSync(path.join(oneShot, "eve.json"), "utf8")),
        );
        const summary = JSON.parse(fs.readFileSync(path.join(dir, "summary.json"), "utf8"));
        expect(summary.packets).toEqual(expected.summary.packets);
        // Sessions are Suricata's flow records. A loaded Suricata's flow records were once seen to differ from a
        // one-shot run's by one clean session, with the outputs above byte for byte the same: the count may differ
        // by one; the attack sessions, decided by the alerts, may not.
        const want = expected.summary.sessions as { clean: number; attacks: number };
        expect(summary.sessions.attacks).toBe(want.attacks);
        expect(Math.abs(summary.sessions.clean - want.clean)).toBeLessThanOrEqual(1);
        expect(summary.passes.map((p: { alerts: number }) => p.alerts)).toEqual([22, 0]);
      }
      const [daemon] = await daemons.running();
      // Suricata logs its start once per process: one daemon served both runs (four scans).
      const log = fs.readFileSync(daemon.logFile, "utf8");
      expect(log.match(/Engine started/g)).toHaveLength(1);
      expect(log.match(/read 1 file/g)).toHaveLength(4);
      expect(stages[0][0]).toBe("loading rules");
      expect(stages[1]).not.toContain("loading rules");
    } finally {
      await daemons.stop();
    }
  }, 120_000);

  it("restarts a killed Suricata and runs once more; a second death fails with Suricata's last lines", async () => {
    const daemons = new SuricataDaemons();
    const killed: number[] = [];
    // Kills the daemon it lends, `kills` times: the scan finds its socket gone.
    const killing = (kills: number): DaemonSource => ({
      async acquire(setup, options) {
        const lease = await daemons.acquire(setup, options);
        if (killed.length < kills) {
          killed.push(lease.pid);
          process.kill(lease.pid, "SIGKILL");
        }
        return lease;
      },
      release: (lease: DaemonLease, broken: boolean) => daemons.release(lease, broken),
    });
    try {
      const result = await sanitize(capture, { ruleFiles, daemons: killing(1) }, { outDir: outDir() });
      expect((result.summary as { alerts: { total: number } }).alerts.total).toBe(22);
      const [daemon] = await daemons.running();
      expect(daemon.pid).not.toBe(killed[0]);
      const failed = outDir();
      const failure = sanitize(capture, { ruleFiles, daemons: killing(3) }, { outDir: failed });
      await expect(failure).rejects.toMatchObject({ code: "TOOL_FAILED" });
      await expect(failure).rejects.toThrow(/Suricata stopped answering twice/);
      expect(fs.readdirSync(failed)).toEqual([]);
      expect(killed).toHaveLength(3);
    } finally {
      await daemons.stop();
    }
  }, 120_000);

  it("replaces a Suricata frozen mid-scan once a command goes unanswered, and runs once more", async () => {
    const commandTimeoutMs = 1500;
    const daemons = new SuricataDaemons({ commandTimeoutMs });
    let frozen = 0;
    let frozenAt = 0;
    const leased: number[] = [];
    const source: DaemonSource = {
      async acquire(setup, options) {
        const lease = await daemons.acquire(setup, options);
        leased.push(lease.pid);
        return lease;
      },
      release: (lease: DaemonLease, broken: boolean) => daemons.release(lease, broken),
    };
    const stages: { stage: string; at: number }[] = [];
    try {
      const result = await sanitize(
        bigCapture(),
        { ruleFiles, daemons: source },
        {
          outDir: outDir(),
          onProgress: ({ percent, stage }) => {
            stages.push({ stage, at: performance.now() });
            if (frozen === 0 && stage === "scanning with Suricata" && percent > 0) {
              // Hung, not dead: the process stays in the table, its socket accepts and never answers.
              frozen = leased[0];
              frozenAt = performance.now();
              process.kill(frozen, "SIGSTOP");
            }
          },
        },
      );
      // 1 000 packets × 200 copies, none alerting with these rules.
      expect((result.summary as { packets: unknown }).packets).toEqual({ input: 200_000, clean: 200_000, attacks: 0 });
      expect(frozen).toBeGreaterThan(0);
      expect(leased).toHaveLength(2);
      expect(leased[1]).not.toBe(frozen);
      const loads = stages.filter((s) => s.stage === "loading rules");
      expect(loads).toHaveLength(2);
      // Found hung by the command timeout, not by a death: the second load starts no sooner than the timeout.
      expect(loads[1].at - frozenAt).toBeGreaterThanOrEqual(commandTimeoutMs);
      expect(fs.existsSync(`/proc/${frozen}`)).toBe(false);
      const [daemon] = await daemons.running();
      expect(daemon.pid).toBe(leased[1]);
    } finally {
      if (frozen > 0 && fs.existsSync(`/proc/${frozen}`)) process.kill(frozen, "SIGKILL");
      await daemons.stop();
    }
  }, 120_000);

  it("a cancel mid-scan, after real progress, leaves no output, no file and the daemon idle", async () => {
    const big = bigCapture();
    const daemons = new SuricataDaemons();
    try {
      const controller = new AbortController();
      const seen: string[] = [];
      const out = outDir();
      const run = sanitize(
        big,
        { ruleFiles, daemons },
        {
          outDir: out,
          signal: controller.signal,
          onProgress: ({ percent, stage }) => {
            seen.push(`${stage} ${percent}`);
            if (stage === "scanning with Suricata" && percent > 0) controller.abort();
          },
        },
      );
      await expect(run).rejects.toMatchObject({ code: "CANCELLED" });
      expect(seen.some((s) => /^scanning with Suricata ([1-9]|[1-3]\d)$/.test(s))).toBe(true);
      expect(fs.readdirSync(out)).toEqual([]);
      const [daemon] = await daemons.running();
      // Only the daemon's own directory is left in the temporary directory, and it reads nothing.
      expect(fs.readdirSync(tmp)).toEqual([path.basename(daemon.dir)]);
      const next = await sanitize(capture, { ruleFiles, daemons }, { outDir: outDir() });
      expect((next.summary as { alerts: { total: number } }).alerts.total).toBe(22);
      expect((await daemons.running())[0].pid).toBe(daemon.pid);
      await daemons.stop();
      expect(fs.readdirSync(tmp)).toEqual([]);
      expect(suricataProcesses(daemon.dir)).toEqual([]);
    } finally {
      await daemons.stop();
    }
  }, 120_000);

  it("no Suricata outlives its owner, even one killed with SIGKILL", async () => {
    const engine = path.resolve(import.meta.dirname, "../../dist/suricata/suricata-daemons.js");
    const script = `const { SuricataDaemons } = await import(${JSON.stringify(engine)});
const daemons = new SuricataDaemons();
const lease = await daemons.acquire({ ruleFiles: ${JSON.stringify(ruleFiles)}, classificationFile: "/etc/suricata/classification.config", homeNet: "any", externalNet: "any", runmode: "single" });
process.stdout.write(lease.socketPath + "\\n");
setInterval(() => {}, 1000);`;
    const owner = spawn(process.execPath, ["--input-type=module", "-e", script], {
      stdio: ["ignore", "pipe", "inherit"],
      env: { ...process.env, TMPDIR: tmp },
    });
    try {
      const socketPath = await new Promise<string>((resolve) =>
        owner.stdout.once("data", (d) => resolve(String(d).trim())),
      );
      const dir = path.dirname(socketPath);
      expect(suricataProcesses(dir)).toHaveLength(1);
      owner.kill("SIGKILL");
      let left = suricataProcesses(dir);
      for (let i = 0; i < 50 && left.length > 0; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        left = suricataProcesses(dir);
      }
      expect(left).toEqual([]);
    } finally {
      owner.kill("SIGKILL");
    }
  }, 60_000);
});

// tracemill suricata serve with tracemill sanitize --suricata-socket, the real Suricata: runs through the socket load
// no rules (Suricata's own log) and write what a one-shot run writes; a run with other rules, or rules changed since
// the serve loaded them, says why in one line and loads its own; a stop (signal, Suricata's death, the serve killed)
// leaves no Suricata in the process table and no link.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { cliPath, repoRoot, runCli } from "./run-cli.js";

const fixture = path.join(repoRoot, "test/fixtures/sanitize/suricata-verify/dcerpc__zerologon");
const capture = path.join(fixture, "input.pcap");
const work = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-cli-serve-"));
// The daemons' directories go in a temporary directory of the test's own: what is left behind shows there.
const tmp = path.join(work, "tmp");
fs.mkdirSync(tmp);
const env = { ...process.env, TMPDIR: tmp };
// A copy, so the test can change it under a running serve.
const rules = path.join(work, "test.rules");
fs.copyFileSync(path.join(fixture, "test.rules"), rules);
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

interface Served {
  child: ChildProcess;
  socket: string;
  log: string;
  dir: string;
  output: () => string;
  exited: Promise<number | null>;
}

async function serve(args: string[]): Promise<Served> {
  const child = spawn(process.execPath, [cliPath, "suricata", "serve", ...args], { cwd: repoRoot, env });
  let stdout = "";
  let stderr = "";
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  const ready = new Promise<{ socket: string; log: string }>((resolve, reject) => {
    const check = () => {
      const log = /its log: (\S+)\)/.exec(stderr)?.[1];
      if (stdout.includes("\n") && log) resolve({ socket: stdout.split("\n")[0], log });
    };
    child.stdout.on("data", (d) => {
      stdout += d;
      check();
    });
    child.stderr.on("data", (d) => {
      stderr += d;
      check();
    });
    void exited.then((code) => reject(new Error(`serve exited with ${code}: ${stderr}`)));
  });
  const { socket, log } = await ready;
  return { child, socket, log, dir: path.dirname(log), output: () => stderr, exited };
}

/** Suricata processes whose command line names `dir`. */
function suricatas(dir: string): string[] {
  return execFileSync("ps", ["-eo", "pid,args"], { encoding: "utf8" })
    .split("\n")
    .filter((line) => /^\s*\d+ (\S*\/)?suricata /.test(line) && line.includes(dir));
}

async function gone(dir: string): Promise<string[]> {
  let left = suricatas(dir);
  for (let i = 0; i < 50 && left.length > 0; i++) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    left = suricatas(dir);
  }
  return left;
}

const count = (text: string, pattern: RegExp) => text.match(pattern)?.length ?? 0;
const withoutFlowIds = (text: string) => text.replace(/"flow_id":\d+,/g, "");

describe("tracemill suricata serve", () => {
  it("serves runs that load no rules and write what a one-shot run writes; other rules are told and run alone", async () => {
    const link = path.join(work, "suricata.sock");
    const served = await serve(["--rules", rules, "--socket", link]);
    try {
      expect(served.socket).toBe(link);
      expect(fs.readlinkSync(link)).toBe(path.join(served.dir, "suricata.socket"));
      expect(suricatas(served.dir)).toHaveLength(1);
      const oneShot = path.join(work, "one-shot");
      expect(runCli(["sanitize", capture, "--rules", rules, "-o", oneShot], { env }).status).toBe(0);
      const byOption = path.join(work, "by-option");
      const byEnv = path.join(work, "by-env");
      const first = runCli(["sanitize", capture, "--rules", rules, "--suricata-socket", link, "-o", byOption], { env });
      const second = runCli(["sanitize", capture, "--rules", rules, "-o", byEnv], {
        env: { ...env, TRACEMILL_SURICATA_SOCKET: link },
      });
      for (const [result, dir] of [
        [first, byOption],
        [second, byEnv],
      ] as const) {
        expect(result.stderr).not.toContain("warning");
        expect(result.status).toBe(0);
        for (const name of ["clean.pcap", "attacks.pcap", "alerts.u2"]) {
          expect(fs.readFileSync(path.join(dir, name)).equals(fs.readFileSync(path.join(oneShot, name)))).toBe(true);
        }
        // Flow ids come from a hash seeded per Suricata process.
        expect(withoutFlowIds(fs.readFileSync(path.join(dir, "eve.json"), "utf8"))).toBe(
          withoutFlowIds(fs.readFileSync(path.join(oneShot, "eve.json"), "utf8")),
        );
      }
      // One start for both runs, and their two passes each (the scan and one verification pass) read through it.
      let log = fs.readFileSync(served.log, "utf8");
      expect(count(log, /Engine started/g)).toBe(1);
      expect(count(log, /read 1 file/g)).toBe(4);

      const other = path.join(work, "other.rules");
      fs.writeFileSync(other, 'alert tcp any any -> any any (msg:"any tcp"; flags:S,12; sid:9; rev:1;)\n');
      const mismatched = runCli(
        ["sanitize", capture, "--rules", other, "--suricata-socket", link, "-o", path.join(work, "other")],
        { env },
      );
      expect(mismatched.status).toBe(0);
      const warnings = mismatched.stderr.split("\n").filter((line) => line.includes("warning"));
      expect(warnings).toEqual([
        `tracemill: warning: the Suricata served at ${link} is loaded with other rules files (${rules}), not this run's (${other}); this run loads the rules into a Suricata of its own`,
      ]);
      // The served rules edited after the serve loaded them: it would scan with the old ones.
      fs.appendFileSync(rules, "# edited\n");
      const changed = runCli(
        ["sanitize", capture, "--rules", rules, "--suricata-socket", link, "-o", path.join(work, "changed")],
        {
          env,
        },
      );
      expect(changed.status).toBe(0);
      expect(changed.stderr).toContain(`warning: the Suricata served at ${link} loaded ${rules} before it changed`);
      log = fs.readFileSync(served.log, "utf8");
      expect(count(log, /read 1 file/g)).toBe(4);

      served.child.kill("SIGTERM");
      expect(await served.exited).toBe(0);
      expect(served.output()).toContain("tracemill: Suricata stopped");
      expect(await gone(served.dir)).toEqual([]);
      expect(fs.existsSync(link)).toBe(false);
      expect(fs.existsSync(served.dir)).toBe(false);
      // A socket no one serves: the run says so and goes on alone.
      const alone = runCli(
        ["sanitize", capture, "--rules", rules, "--suricata-socket", link, "-o", path.join(work, "alone")],
        {
          env,
        },
      );
      expect(alone.status).toBe(0);
      expect(alone.stderr).toContain(`warning: no Suricata is served at ${link} (ENOENT)`);
    } finally {
      served.child.kill("SIGKILL");
    }
  }, 120_000);

  it("ends with status 1 and Suricata's last lines when Suricata dies; a killed serve leaves no Suricata", async () => {
    const link = path.join(work, "dying.sock");
    const dying = await serve(["--rules", rules, "--socket", link]);
    try {
      const pid = Number(fs.readFileSync(path.join(dying.dir, "suricata.pid"), "utf8"));
      process.kill(pid, "SIGKILL");
      expect(await dying.exited).toBe(1);
      expect(dying.output()).toMatch(/\ntracemill: Suricata stopped: .*Engine started/);
      expect(await gone(dying.dir)).toEqual([]);
      expect(fs.existsSync(link)).toBe(false);
    } finally {
      dying.child.kill("SIGKILL");
    }
    const killed = await serve(["--rules", rules, "--socket", link]);
    killed.child.kill("SIGKILL");
    await killed.exited;
    expect(await gone(killed.dir)).toEqual([]);
    // Its link is left, to a socket nothing answers at: the next serve takes the path, and removes what was left.
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.existsSync(killed.dir)).toBe(true);
    const next = await serve(["--rules", rules, "--socket", link]);
    try {
      expect(fs.readlinkSync(link)).toBe(path.join(next.dir, "suricata.socket"));
      expect(fs.existsSync(killed.dir)).toBe(false);
      // A path a running serve holds is refused.
      const taken = runCli(["suricata", "serve", "--rules", rules, "--socket", link], { env });
      expect(taken.status).toBe(1);
      expect(taken.stderr.trim().split("\n").at(-1)).toBe(
        `tracemill: ${link} exists already: give --socket a path that is free`,
      );
      expect(fs.readlinkSync(link)).toBe(path.join(next.dir, "suricata.socket"));
    } finally {
      next.child.kill("SIGTERM");
      await next.exited;
    }
    expect(await gone(next.dir)).toEqual([]);
  }, 120_000);
});

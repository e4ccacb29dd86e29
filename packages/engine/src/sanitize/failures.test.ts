// How sanitize fails: no Suricata, Suricata exiting non-zero, a hang, cancellation; temporary files always removed.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { type SanitizeOptions, sanitize } from "./sanitize.js";

const capture = fixturePath("dns53.pcap");
let tmp: string;
let out: string;
let savedTmpdir: string | undefined;

beforeEach(() => {
  // A private temporary directory, so the test sees exactly what sanitize leaves behind.
  savedTmpdir = process.env.TMPDIR;
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-failures-"));
  out = path.join(tmp, "out");
  fs.mkdirSync(out);
  fs.mkdirSync(path.join(tmp, "t"));
  process.env.TMPDIR = path.join(tmp, "t");
});
afterEach(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A stand-in for suricata: a shell script with the given body. */
function fakeSuricata(body: string): string {
  const file = path.join(tmp, "fake-suricata");
  fs.writeFileSync(file, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return file;
}

async function failure(options: SanitizeOptions, signal?: AbortSignal): Promise<unknown> {
  const error = await sanitize(capture, options, { outDir: out, signal }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(fs.readdirSync(out)).toEqual([]);
  expect(fs.readdirSync(path.join(tmp, "t"))).toEqual([]);
  return error;
}

describe("sanitize failures", () => {
  it("says how to install Suricata when it is missing", async () => {
    const error = await failure({ suricataPath: path.join(tmp, "no-such-suricata") });
    expect(error).toMatchObject({ code: "TOOL_FAILED" });
    expect(String((error as Error).message)).toContain("apt-get install -t bookworm-backports suricata");
  });

  it("takes the program from TRACEMILL_SURICATA", async () => {
    process.env.TRACEMILL_SURICATA = path.join(tmp, "from-env");
    try {
      expect(String(((await failure({})) as Error).message)).toContain("from-env");
    } finally {
      delete process.env.TRACEMILL_SURICATA;
    }
  });

  it("puts Suricata's stderr in the error when it exits non-zero", async () => {
    const error = await failure({ suricataPath: fakeSuricata('echo "E: something broke" >&2; exit 3') });
    expect(error).toMatchObject({ code: "TOOL_FAILED", context: { exitCode: 3 } });
    expect(String((error as Error).message)).toMatch(/exit status 3\): E: something broke/);
  });

  it("closes the EVE files it was reading when Suricata fails part-way", async () => {
    const openFiles = () => fs.readdirSync("/proc/self/fd").length;
    const before = openFiles();
    // Writes the start of both EVE outputs into its log directory (-l), long enough for them to be opened, then fails.
    const body = [
      'while [ $# -gt 0 ]; do [ "$1" = "-l" ] && dir=$2; shift; done',
      `printf '{"event_type":' > "$dir/eve.json"; printf '{"event_type":' > "$dir/flows.json"`,
      "sleep 1; exit 2",
    ].join("\n");
    const error = await failure({ suricataPath: fakeSuricata(body) });
    expect(error).toMatchObject({ code: "TOOL_FAILED", context: { exitCode: 2 } });
    expect(openFiles()).toBe(before);
  });

  it("stops a run that hangs after the time limit", async () => {
    const started = Date.now();
    const error = await failure({ suricataPath: fakeSuricata("sleep 30"), timeoutMs: 300 });
    expect(error).toMatchObject({ code: "TOOL_FAILED" });
    expect(String((error as Error).message)).toContain("did not finish");
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it("stops on abort", async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    const error = await failure({ suricataPath: fakeSuricata("sleep 30") }, controller.signal);
    expect(error).toMatchObject({ code: "CANCELLED" });
  });

  it("rejects a missing capture, a missing rules file and a bad threshold before running anything", async () => {
    await expect(sanitize(path.join(tmp, "none.pcap"), {}, { outDir: out })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(sanitize(capture, { ruleFiles: [path.join(tmp, "x.rules")] }, { outDir: out })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(sanitize(capture, { minSeverity: 0 }, { outDir: out })).rejects.toMatchObject({ code: "BAD_OPTION" });
  });

  it("refuses an empty capture instead of letting Suricata wait for packets", async () => {
    const empty = fixturePath("pcapng_empty.pcapng");
    await expect(sanitize(empty, {}, { outDir: out })).rejects.toMatchObject({ code: "BAD_INPUT" });
    expect(fs.readdirSync(out)).toEqual([]);
  });
});

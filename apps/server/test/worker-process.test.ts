// A job's worker process on its own: what it does when the server that forked it goes away mid-job.
import { fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import type { FromWorker, RunMessage } from "../src/jobs/worker-messages.js";

const here = path.dirname(fileURLToPath(import.meta.url));
const workerEntry = path.resolve(here, "../dist/jobs/worker-process.js");
const fakeEngine = path.join(here, "fake-engine.mjs");
const capture = path.resolve(here, "../../../test/fixtures/capture/formats/same100_100-packets.pcap");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-worker-process-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("a job's worker process", () => {
  it("cancels its job and cleans its work directory when the server goes away, then exits", async () => {
    const outDir = path.join(tmp, "out");
    const workDir = path.join(tmp, "work");
    fs.mkdirSync(outDir);
    const child = fork(workerEntry, [], { stdio: ["ignore", "ignore", "inherit", "ipc"], execArgv: [] });
    const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
    const progressed = new Promise<void>((resolve) =>
      child.on("message", (message: FromWorker) => {
        if (message.type === "progress") resolve();
      }),
    );
    // The fake engine's extract runs activeTimeout × 10 ms (here 60 s) unless it is cancelled.
    const run: RunMessage = {
      type: "run",
      jobId: "job-1",
      capability: "extract",
      params: { idleTimeout: 0, activeTimeout: 6000 },
      inputs: { capture: { path: capture, name: "capture.pcap", compression: null } },
      outDir,
      workDir,
      testEngineModule: fakeEngine,
      rulesetsDir: tmp,
    };
    child.send(run);
    await progressed;
    // The input reached the engine through the work directory, which the job's end removes.
    expect(fs.existsSync(path.join(workDir, "inputs", "capture", "capture.pcap"))).toBe(true);
    const started = Date.now();
    child.disconnect();
    await exited;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(fs.existsSync(workDir)).toBe(false);
  });
});

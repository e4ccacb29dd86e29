// Test hook for the worker pool (loaded through TRACEMILL_TEST_ENGINE_MODULE by the test servers only): a stand-in
// for the extract capability whose behaviour the test picks with params.idleTimeout (1 crash, 2 typed failure,
// otherwise run activeTimeout × 10 ms with progress and write two outputs).
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const cancelled = () => Object.assign(new Error("cancelled"), { name: "TracemillError", code: "CANCELLED" });

const sleep = (ms, signal) =>
  new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(cancelled());
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(cancelled());
    });
  });

export async function extract(run, options) {
  const { idleTimeout, activeTimeout } = run.params;
  if (idleTimeout === 1) process.exit(3);
  if (idleTimeout === 2) {
    // Named by the path the engine was given, as the real engine's messages are (the worker rewrites it).
    throw Object.assign(new Error(`${run.inputs.capture}: the capture is damaged at byte 24`), {
      name: "TracemillError",
      code: "DAMAGED_INPUT",
    });
  }
  const steps = 10;
  for (let step = 0; step < steps; step++) {
    options.onProgress?.({ percent: (step / steps) * 100, stage: `fake step ${step + 1}` });
    await sleep((activeTimeout * 10) / steps, options.signal);
  }
  const input = fs.readFileSync(run.inputs.capture);
  const sha256 = crypto.createHash("sha256").update(input).digest("hex");
  fs.writeFileSync(path.join(options.outDir, "features.csv"), `input,bytes\n${sha256},${input.length}\n`);
  fs.copyFileSync(run.inputs.capture, path.join(options.outDir, "copy.pcap"));
  const summary = { bytes: input.length, pid: process.pid, niceness: os.getPriority() };
  fs.writeFileSync(path.join(options.outDir, "summary.json"), JSON.stringify(summary));
  return {
    outputs: [
      { name: "features.csv", kind: "features-csv" },
      { name: "copy.pcap", kind: "clean-pcap" },
      { name: "summary.json", kind: "summary-json" },
    ],
    summary,
  };
}

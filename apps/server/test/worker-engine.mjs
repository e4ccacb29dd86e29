// Test hook for the worker tests: the fake engine's extract, logging first which job runs under which runner process
// (the `tracemill worker` or server that forked this one), so a test can tell who ran a job and how many times. Its
// features.csv is begun (the header alone) before the run's wait: a worker killed then dies in the middle of writing.
import fs from "node:fs";
import path from "node:path";
import { extract as fakeExtract } from "./fake-engine.mjs";

export async function extract(run, options) {
  const jobId = path.basename(path.dirname(options.outDir));
  fs.appendFileSync(process.env.TRACEMILL_TEST_RUN_LOG, `${jobId} ${process.ppid}\n`);
  fs.writeFileSync(path.join(options.outDir, "features.csv"), "input,bytes\n");
  return fakeExtract(run, options);
}

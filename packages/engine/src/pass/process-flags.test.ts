// The test processes run with the pass flags too (vitest.config.ts), so that what the tests exercise is compiled the
// way the tracemill command and the job processes compile it.
import { describe, expect, it } from "vitest";
import { PASS_PROCESS_FLAGS } from "./process-flags.js";

describe("PASS_PROCESS_FLAGS", () => {
  it("are among this test process's Node flags", () => {
    expect(PASS_PROCESS_FLAGS.length).toBeGreaterThan(0);
    for (const flag of PASS_PROCESS_FLAGS) expect(process.execArgv).toContain(flag);
  });
});

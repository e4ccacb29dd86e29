// The cic set alone brings CICFlowMeter's timeouts (120 s from a flow's start, no shorter idle end); beside another
// set, or under options given, the run's own apply.
import { describe, expect, it } from "vitest";
import { checkedFlowOptions } from "./flow-options.js";

describe("the cic set's timeouts", () => {
  it("are the run's defaults when cic is its only set, and only then", () => {
    const alone = checkedFlowOptions({ features: ["cic"] });
    expect([alone.idleTimeout, alone.activeTimeout]).toEqual([120, 120]);
    const shared = checkedFlowOptions({ features: ["tracemill", "cic"] });
    expect([shared.idleTimeout, shared.activeTimeout]).toEqual([120, 1800]);
  });

  it("give way to timeouts the run sets", () => {
    const given = checkedFlowOptions({ features: ["cic"], activeTimeout: 600, idleTimeout: 30 });
    expect([given.idleTimeout, given.activeTimeout]).toEqual([30, 600]);
  });
});

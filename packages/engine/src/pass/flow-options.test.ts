// The pass's session options as an engine caller gives them: --splt's default, bounds and place in the summary.
import { TracemillError } from "@tracemill/core/errors";
import { describe, expect, it } from "vitest";
import { checkedFlowOptions } from "./flow-options.js";

describe("checkedFlowOptions", () => {
  it("gives splt (default 32) only when the nfstream set is chosen, so other runs' summaries stay as they were", () => {
    expect(checkedFlowOptions({ features: ["nfstream"] }).splt).toBe(32);
    expect(checkedFlowOptions({ features: ["tracemill", "nfstream"], splt: 0 }).splt).toBe(0);
    expect(checkedFlowOptions({ splt: 5 })).toEqual({
      features: ["tracemill"],
      idleTimeout: 120,
      activeTimeout: 1800,
      length: "ip",
    });
  });

  it("refuses a splt that is not a whole number from 0 to 255 with BAD_OPTION", () => {
    expect(checkedFlowOptions({ features: ["nfstream"], splt: 255 }).splt).toBe(255);
    for (const splt of [256, -1, 2.5, Number.NaN]) {
      let error: unknown;
      try {
        checkedFlowOptions({ features: ["nfstream"], splt });
      } catch (caught) {
        error = caught;
      }
      expect(error, String(splt)).toBeInstanceOf(TracemillError);
      expect((error as TracemillError).code).toBe("BAD_OPTION");
      expect((error as TracemillError).message).toBe(`--splt must be a whole number from 0 to 255 (got ${splt})`);
    }
  });
});

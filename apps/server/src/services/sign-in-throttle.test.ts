// The sign-in slow-down: free failures, then waits that double up to a cap, forgiven by a success or by time.
import { describe, expect, it } from "vitest";
import { signInThrottle } from "./sign-in-throttle.js";

describe("signInThrottle", () => {
  it("lets five failures pass, then makes each attempt wait 1 s, 2 s, 4 s … after the last failure", () => {
    let now = 0;
    const throttle = signInThrottle(5, () => now);
    for (let i = 0; i < 4; i++) throttle.failed("a");
    expect(throttle.remainingWait("a")).toBe(0);
    throttle.failed("a");
    expect(throttle.remainingWait("a")).toBe(1000);
    now += 1000;
    throttle.failed("a");
    expect(throttle.remainingWait("a")).toBe(2000);
    now += 400;
    expect(throttle.remainingWait("a")).toBe(1600);
    expect(throttle.remainingWait("b")).toBe(0);
  });

  it("caps the wait at 15 minutes and forgets after an hour or a success", () => {
    let now = 0;
    const throttle = signInThrottle(5, () => now);
    for (let i = 0; i < 40; i++) throttle.failed("a");
    expect(throttle.remainingWait("a")).toBe(15 * 60_000);
    now += 61 * 60_000;
    expect(throttle.remainingWait("a")).toBe(0);
    for (let i = 0; i < 6; i++) throttle.failed("b");
    throttle.succeeded("b");
    expect(throttle.remainingWait("b")).toBe(0);
  });
});

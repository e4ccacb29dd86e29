// The sign-in slow-down: attempts reserved before the check, waits that double up to a cap, and the owner's usual
// address held only by its own count.
import { describe, expect, it } from "vitest";
import { type SignInAttempt, signInThrottle } from "./sign-in-throttle.js";

const limits = { perAccountAndAddress: 5, perAccount: 20, perAddress: 20 };

function attempt(result: ReturnType<ReturnType<typeof signInThrottle>["reserve"]>): SignInAttempt {
  if ("wait" in result) throw new Error(`asked to wait ${result.wait} ms`);
  return result.attempt;
}

describe("signInThrottle", () => {
  it("reserves five attempts of a burst, then makes the next wait 1 s, 2 s, 4 s … after the last", () => {
    let now = 0;
    const throttle = signInThrottle(limits, () => now);
    // Reserved without being settled: as when sixty requests arrive before any password check ends.
    const burst = Array.from({ length: 60 }, () => throttle.reserve("a", "10.0.0.1"));
    expect(burst.filter((r) => "attempt" in r)).toHaveLength(5);
    expect(burst.slice(5).every((r) => "wait" in r && r.wait === 1000)).toBe(true);
    now += 1000;
    attempt(throttle.reserve("a", "10.0.0.1"));
    expect(throttle.reserve("a", "10.0.0.1")).toEqual({ wait: 2000 });
    now += 2000;
    attempt(throttle.reserve("a", "10.0.0.1"));
    now += 400;
    expect(throttle.reserve("a", "10.0.0.1")).toEqual({ wait: 3600 });
    // Another account from the same address is not held (5 + 2 failures of the address, 20 free).
    attempt(throttle.reserve("b", "10.0.0.1"));
  });

  it("starts the wait when a failed check ends, not when it was reserved", () => {
    let now = 0;
    const throttle = signInThrottle(limits, () => now);
    const reserved = Array.from({ length: 5 }, () => attempt(throttle.reserve("a", "10.0.0.1")));
    now += 700;
    for (const r of reserved) r.failed();
    now += 300;
    expect(throttle.reserve("a", "10.0.0.1")).toEqual({ wait: 700 });
  });

  it("caps the wait at 15 minutes, forgets after an hour, and a success clears the account's count there", () => {
    let now = 0;
    const throttle = signInThrottle(limits, () => now);
    for (let i = 0; i < 16; i++) {
      attempt(throttle.reserve("a", "10.0.0.1"));
      now += 15 * 60_000;
    }
    now -= 15 * 60_000;
    expect(throttle.reserve("a", "10.0.0.1")).toEqual({ wait: 15 * 60_000 });
    now += 61 * 60_000;
    attempt(throttle.reserve("a", "10.0.0.1")).succeeded();
    for (let i = 0; i < 5; i++) attempt(throttle.reserve("a", "10.0.0.1"));
    expect("wait" in throttle.reserve("a", "10.0.0.1")).toBe(true);
  });

  it("keeps the owner's usual address open while guesses from elsewhere are held", () => {
    let now = 0;
    const throttle = signInThrottle(limits, () => now);
    attempt(throttle.reserve("owner", "192.0.2.1")).succeeded();
    // Guesses from 40 addresses, 5 each and spaced out: the account's count (20 free) holds every new address.
    for (let a = 0; a < 40; a++) {
      for (let i = 0; i < 5; i++) {
        const r = throttle.reserve("owner", `198.51.100.${a}`);
        if ("attempt" in r) now += 1;
      }
    }
    expect("wait" in throttle.reserve("owner", "203.0.113.9")).toBe(true);
    // The usual address answers to its own count only.
    attempt(throttle.reserve("owner", "192.0.2.1")).succeeded();
  });

  it("holds an address trying many accounts, but not an account that signed in from it before", () => {
    const now = 0;
    const throttle = signInThrottle(limits, () => now);
    attempt(throttle.reserve("colleague", "10.0.0.9")).succeeded();
    for (let i = 0; i < 20; i++) attempt(throttle.reserve(`guess-${i}`, "10.0.0.9"));
    expect(throttle.reserve("someone-new", "10.0.0.9")).toEqual({ wait: 1000 });
    attempt(throttle.reserve("colleague", "10.0.0.9")).succeeded();
  });

  it("takes back a successful attempt from the wide counts, so right passwords never add up to a wait", () => {
    const now = 0;
    const throttle = signInThrottle(limits, () => now);
    for (let i = 0; i < 30; i++) attempt(throttle.reserve(`user-${i}`, "10.0.0.7")).succeeded();
    for (let i = 0; i < 19; i++) attempt(throttle.reserve(`stranger-${i}`, "10.0.0.7"));
    attempt(throttle.reserve("last-stranger", "10.0.0.7"));
  });
});

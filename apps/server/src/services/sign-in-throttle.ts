// Slows repeated failed sign-ins per key (an email, or a client address): after a few failures each new attempt
// must wait, doubling up to 15 minutes.
const MAX_WAIT_MS = 15 * 60_000;
const FORGET_AFTER_MS = 60 * 60_000;
const MAX_TRACKED = 100_000;

interface Failures {
  count: number;
  last: number;
}

export function signInThrottle(freeFailures: number, now: () => number = Date.now) {
  const failures = new Map<string, Failures>();

  const waitFor = (entry: Failures): number => {
    if (entry.count < freeFailures) return 0;
    return Math.min(MAX_WAIT_MS, 1000 * 2 ** (entry.count - freeFailures));
  };

  return {
    /** Milliseconds the caller must still wait before trying this email again (0: go ahead). */
    remainingWait(key: string): number {
      const entry = failures.get(key);
      if (!entry) return 0;
      if (now() - entry.last > FORGET_AFTER_MS) {
        failures.delete(key);
        return 0;
      }
      return Math.max(0, entry.last + waitFor(entry) - now());
    },
    failed(key: string): void {
      if (failures.size >= MAX_TRACKED) {
        for (const [k, v] of failures) if (now() - v.last > FORGET_AFTER_MS) failures.delete(k);
        if (failures.size >= MAX_TRACKED) failures.clear();
      }
      const entry = failures.get(key) ?? { count: 0, last: 0 };
      failures.set(key, { count: entry.count + 1, last: now() });
    },
    succeeded(key: string): void {
      failures.delete(key);
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;

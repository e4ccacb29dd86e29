// Slows password guessing without locking the owner out. An attempt is reserved, and counted as failed, before its
// password is checked, synchronously: parallel requests cannot all pass the check while the first hashes run.
// Three counts: the account from this address (tight), the account from any address and the address for any account
// (looser). An address the account has signed in from before answers to the first only, so guesses from elsewhere,
// or against many accounts from a shared address, never keep the owner out of an account from their usual address.

/** A count of failures: free ones, then each attempt must wait 1 s, 2 s, 4 s … (at most 15 min) after the last. */
const FIRST_WAIT_MS = 1000;
const MAX_WAIT_MS = 15 * 60_000;
/** Failures older than this are forgotten. */
const FORGET_AFTER_MS = 60 * 60_000;
/** Keys kept per count (and addresses remembered): bounded memory whatever an attacker sends. */
const MAX_TRACKED = 100_000;

interface Failures {
  count: number;
  last: number;
}

function failureCount(free: number, now: () => number) {
  const failures = new Map<string, Failures>();
  return {
    /** Milliseconds before `key` may try again (0: now). */
    wait(key: string): number {
      const entry = failures.get(key);
      if (!entry) return 0;
      if (now() - entry.last > FORGET_AFTER_MS) {
        failures.delete(key);
        return 0;
      }
      if (entry.count < free) return 0;
      const wait = Math.min(MAX_WAIT_MS, FIRST_WAIT_MS * 2 ** (entry.count - free));
      return Math.max(0, entry.last + wait - now());
    },
    add(key: string): void {
      if (failures.size >= MAX_TRACKED) {
        for (const [k, v] of failures) if (now() - v.last > FORGET_AFTER_MS) failures.delete(k);
        if (failures.size >= MAX_TRACKED) failures.clear();
      }
      failures.set(key, { count: (failures.get(key)?.count ?? 0) + 1, last: now() });
    },
    /** Restarts the wait from now: the failure is known when its check ends, not when it was reserved. */
    touch(key: string): void {
      const entry = failures.get(key);
      if (entry) entry.last = now();
    },
    /** Takes back one failure added for an attempt that turned out right. */
    undo(key: string): void {
      const entry = failures.get(key);
      if (entry && entry.count > 1) entry.count--;
      else failures.delete(key);
    },
    clear(key: string): void {
      failures.delete(key);
    },
  };
}

export interface SignInLimits {
  /** Failures of one account from one address before attempts must wait (default 5). */
  perAccountAndAddress: number;
  /** Failures of one account from addresses it never signed in from (default 20). */
  perAccount: number;
  /** Failures from one address on accounts never signed in from it (default 20). */
  perAddress: number;
}

const DEFAULT_SIGN_IN_LIMITS: SignInLimits = { perAccountAndAddress: 5, perAccount: 20, perAddress: 20 };

/** A reserved attempt, counted as failed from the start; reported once its password is checked. */
export interface SignInAttempt {
  succeeded(): void;
  failed(): void;
}

export function signInThrottle(limits: SignInLimits = DEFAULT_SIGN_IN_LIMITS, now: () => number = Date.now) {
  const pairs = failureCount(limits.perAccountAndAddress, now);
  const accounts = failureCount(limits.perAccount, now);
  const addresses = failureCount(limits.perAddress, now);
  /** Account and address pairs that signed in; oldest first, for a bounded memory. */
  const known = new Set<string>();

  return {
    /**
     * Reserves an attempt at `account` (the email's key) from `address`: `{wait}` in milliseconds when it must not be
     * tried yet, else the attempt, already counted as failed. Synchronous, so two requests cannot both take the
     * last free attempt.
     */
    reserve(account: string, address: string): { wait: number } | { attempt: SignInAttempt } {
      const pair = `${account}\n${address}`;
      const usual = known.has(pair);
      const wait = usual
        ? pairs.wait(pair)
        : Math.max(pairs.wait(pair), accounts.wait(account), addresses.wait(address));
      if (wait > 0) return { wait };
      pairs.add(pair);
      if (!usual) {
        accounts.add(account);
        addresses.add(address);
      }
      return {
        attempt: {
          succeeded() {
            pairs.clear(pair);
            if (!usual) {
              accounts.undo(account);
              addresses.undo(address);
            }
            known.delete(pair);
            known.add(pair);
            if (known.size > MAX_TRACKED) known.delete(known.values().next().value as string);
          },
          failed() {
            pairs.touch(pair);
            if (!usual) {
              accounts.touch(account);
              addresses.touch(address);
            }
          },
        },
      };
    },
  };
}

export type SignInThrottle = ReturnType<typeof signInThrottle>;

// Sign-in against a real SQLite database with the real scrypt hasher, counted through the hasher the service is
// given: a parallel burst of wrong passwords gets a handful of real checks, and the owner gets in afterwards.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { messages } from "@tracemill/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../db/connect.js";
import { accountsService } from "./accounts.js";
import { HttpError } from "./http-error.js";
import { type PasswordHasher, scryptPasswords } from "./passwords.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-accounts-"));
let db: Db;
beforeAll(async () => {
  db = await openDatabase(path.join(tmp, "test.sqlite"));
});
afterAll(async () => {
  await db?.destroy();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The real hasher, counting the checks it makes. */
function countingHasher(): PasswordHasher & { checks: number } {
  const hasher = {
    checks: 0,
    hash: scryptPasswords.hash,
    async verify(password: string, stored: string) {
      hasher.checks++;
      return scryptPasswords.verify(password, stored);
    },
  };
  return hasher;
}

const status = (outcome: PromiseSettledResult<unknown>) =>
  outcome.status === "fulfilled" ? 200 : outcome.reason instanceof HttpError ? outcome.reason.status : 500;

describe("sign-in slow-down (accountsService)", () => {
  it("checks at most 5 passwords of 60 parallel wrong ones; the right one gets in within 1 s", async () => {
    const passwords = countingHasher();
    const accounts = accountsService(db, { sessionHours: 1, passwords });
    const email = "owner@example.org";
    await accounts.register({ userName: "Owner", email, password: "right password", Renewpassword: "right password" });

    const burst = await Promise.allSettled(
      Array.from({ length: 60 }, () => accounts.signIn({ email, password: "wrong password" }, "198.51.100.7")),
    );
    expect(passwords.checks).toBe(5);
    expect(burst.map(status).sort()).toEqual([...new Array(5).fill(401), ...new Array(55).fill(429)]);
    const refused = burst.find((o) => status(o) === 429) as PromiseRejectedResult;
    expect(refused.reason.messages).toEqual([`${messages.tooManyAttempts} 1 seconds`]);

    // From the attacker's address (where the owner may also be, behind the same NAT): the wait is the one said.
    const early = await accounts.signIn({ email, password: "right password" }, "198.51.100.7").catch((e) => e);
    expect(early).toBeInstanceOf(HttpError);
    expect(early.status).toBe(429);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const signedIn = await accounts.signIn({ email, password: "right password" }, "198.51.100.7");
    expect(signedIn.user.userName).toBe("Owner");
    expect(passwords.checks).toBe(6);
  });

  it("lets the owner in at once from their usual address while another address's guesses are held", async () => {
    const passwords = countingHasher();
    const accounts = accountsService(db, { sessionHours: 1, passwords });
    const email = "usual@example.org";
    await accounts.register({ userName: "Usual", email, password: "right password", Renewpassword: "right password" });
    await accounts.signIn({ email, password: "right password" }, "192.0.2.10");
    await Promise.allSettled(
      Array.from({ length: 60 }, () => accounts.signIn({ email, password: "wrong password" }, "203.0.113.5")),
    );
    expect(passwords.checks).toBe(1 + 5);
    const started = Date.now();
    expect((await accounts.signIn({ email, password: "right password" }, "192.0.2.10")).user.email).toBe(email);
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("counts unknown emails too, checked against a decoy hash", async () => {
    const passwords = countingHasher();
    const accounts = accountsService(db, { sessionHours: 1, passwords });
    const burst = await Promise.allSettled(
      Array.from({ length: 30 }, () =>
        accounts.signIn({ email: "nobody@example.org", password: "some password" }, "198.51.100.8"),
      ),
    );
    expect(passwords.checks).toBe(5);
    expect(burst.map(status).filter((s) => s === 401)).toHaveLength(5);
  });
});

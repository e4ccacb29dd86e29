// Accounts: register, sign in (slowed after failures, sign-in-throttle.ts), the session behind a cookie, sign out.
import crypto from "node:crypto";
import { messages, type SessionUser, signinRequest, signupRequest } from "@tracemill/contracts";
import type { Db } from "../db/connect.js";
import { sessionsRepository, usersRepository } from "../repositories/users.js";
import { HttpError, validationError } from "./http-error.js";
import type { PasswordHasher } from "./passwords.js";
import { signInThrottle } from "./sign-in-throttle.js";

export interface CurrentUser extends SessionUser {
  id: string;
}

const sessionKey = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

export interface AccountsOptions {
  sessionHours: number;
  passwords: PasswordHasher;
}

export function accountsService(db: Db, options: AccountsOptions) {
  const users = usersRepository(db);
  const sessions = sessionsRepository(db);
  const { passwords } = options;
  const throttle = signInThrottle();
  // Checked when the email is unknown, so timing does not reveal which emails exist.
  const decoyHash = passwords.hash("decoy password that matches nothing");

  async function openSession(userId: string): Promise<{ token: string; expires: Date }> {
    const token = crypto.randomBytes(32).toString("base64url");
    const now = new Date();
    const expires = new Date(now.getTime() + options.sessionHours * 3_600_000);
    await sessions.insert({
      id: sessionKey(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expires.toISOString(),
    });
    return { token, expires };
  }

  return {
    async register(body: unknown): Promise<SessionUser> {
      const parsed = signupRequest.safeParse(body ?? {});
      if (!parsed.success) throw validationError(parsed.error);
      const { userName, email, password } = parsed.data;
      const inserted = await users.insert({
        id: crypto.randomUUID(),
        user_name: userName,
        email,
        email_key: email.toLowerCase(),
        password_hash: await passwords.hash(password),
        created_at: new Date().toISOString(),
      });
      if (!inserted) throw new HttpError(409, [messages.emailTaken]);
      return { userName, email };
    },

    /** `client` is the request's address (clientAddress): with the email, the key of the slow-down. */
    async signIn(body: unknown, client: string): Promise<{ user: SessionUser; token: string; expires: Date }> {
      const parsed = signinRequest.safeParse(body ?? {});
      if (!parsed.success) throw validationError(parsed.error);
      const key = parsed.data.email.toLowerCase();
      // Before anything is awaited: the reservation is what makes parallel guesses wait.
      const reserved = throttle.reserve(key, client);
      if ("wait" in reserved) {
        throw new HttpError(429, [`${messages.tooManyAttempts} ${Math.ceil(reserved.wait / 1000)} seconds`]);
      }
      const user = await users.byEmailKey(key);
      const ok = await passwords.verify(parsed.data.password, user?.password_hash ?? (await decoyHash));
      if (!user || !ok) {
        reserved.attempt.failed();
        throw new HttpError(401, [messages.badCredentials]);
      }
      reserved.attempt.succeeded();
      const { token, expires } = await openSession(user.id);
      return { user: { userName: user.user_name, email: user.email }, token, expires };
    },

    async userOfToken(token: string | undefined): Promise<CurrentUser | null> {
      if (!token) return null;
      const row = await sessions.userOf(sessionKey(token), new Date().toISOString());
      return row ? { id: row.id, userName: row.user_name, email: row.email } : null;
    },

    async signOut(token: string | undefined): Promise<void> {
      if (token) await sessions.remove(sessionKey(token));
    },

    removeExpiredSessions: () => sessions.removeExpired(new Date().toISOString()),
  };
}

export type AccountsService = ReturnType<typeof accountsService>;

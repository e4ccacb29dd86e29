// The session cookie: httpOnly, SameSite=Lax, expiring with the server-side session; and who the request is from.
import type {} from "@fastify/cookie";
import type { FastifyReply, FastifyRequest } from "fastify";
import type { AccountsService, CurrentUser } from "../services/accounts.js";

export const SESSION_COOKIE = "tracemill_session";

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, token: string, expires: Date): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: "lax",
    secure: request.protocol === "https",
    path: "/",
    expires,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: "/" });
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies[SESSION_COOKIE];
}

/** The signed-in user of a request, looked up once per request. */
export function currentUser(accounts: AccountsService) {
  const cache = new WeakMap<FastifyRequest, Promise<CurrentUser | null>>();
  return (request: FastifyRequest): Promise<CurrentUser | null> => {
    let user = cache.get(request);
    if (!user) {
      user = accounts.userOfToken(sessionToken(request));
      cache.set(request, user);
    }
    return user;
  };
}

// /api/auth: register, sign in, session check, sign out (SPEC.md §4, §5, §8).
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { clientAddress } from "../http/client-address.js";
import { registrationLimit } from "../http/registration-limit.js";
import { clearSessionCookie, currentUser, sessionToken, setSessionCookie } from "../http/session-cookie.js";

export function apiAuthRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userOf = currentUser(ctx.accounts);

  const limited = { onRequest: registrationLimit(app, ctx.config.registrationsPerHour) };
  app.post("/api/auth/register", limited, async (request, reply) => {
    const user = await ctx.accounts.register(request.body);
    return reply.code(201).send(user);
  });

  app.post("/api/auth/login", async (request, reply) => {
    const { user, token, expires } = await ctx.accounts.signIn(request.body, clientAddress(request));
    setSessionCookie(request, reply, token, expires);
    return user;
  });

  app.get("/api/auth/session", async (request) => {
    const user = await userOf(request);
    return user ? { userName: user.userName, email: user.email } : {};
  });

  app.post("/api/auth/logout", async (request, reply) => {
    await ctx.accounts.signOut(sessionToken(request));
    clearSessionCookie(reply);
    return { ok: true };
  });
}

// Registrations per client address and hour (@fastify/rate-limit, in memory), one count for /api/auth/register and
// the original /singup: refused before the body is read or a password hashed.
import type { FastifyInstance } from "fastify";
import { HttpError } from "../services/http-error.js";
import { clientAddress } from "./client-address.js";

const HOUR_MS = 3_600_000;

export type RegistrationLimit = ReturnType<FastifyInstance["rateLimit"]>;

const hooks = new WeakMap<FastifyInstance, RegistrationLimit>();

/** The onRequest hook of the registration routes, one per app so that they share it (the plugin is registered). */
export function registrationLimit(app: FastifyInstance, perHour: number): RegistrationLimit {
  let hook = hooks.get(app);
  if (hook) return hook;
  hook = app.rateLimit({
    max: perHour,
    timeWindow: HOUR_MS,
    keyGenerator: clientAddress,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, [
        `Too many registrations from this address; try again in ${Math.max(1, Math.ceil(context.ttl / 60_000))} minutes`,
      ]),
  });
  hooks.set(app, hook);
  return hook;
}

// For calls that only a signed-in user may make: signed out answers 401 before the body is read or parsed, so a
// visitor's malformed or huge body costs nothing and never answers anything but 401.
import type { FastifyRequest } from "fastify";
import type { CurrentUser } from "../services/accounts.js";
import { signInRequired } from "../services/http-error.js";

export function requireSignIn(userOf: (request: FastifyRequest) => Promise<CurrentUser | null>) {
  return async (request: FastifyRequest): Promise<void> => {
    if (!(await userOf(request))) throw signInRequired();
  };
}

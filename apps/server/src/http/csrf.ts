// Cross-site request protection for state-changing calls: a browser must say the request comes from this origin.
// Browsers send Sec-Fetch-Site and Origin on such requests; clients that send neither (curl, scripts) are not
// browsers carrying a victim's cookies, so they pass. The session cookie is also SameSite=Lax.
import type { FastifyReply, FastifyRequest } from "fastify";

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export function isCrossSite(request: FastifyRequest): boolean {
  if (SAFE.has(request.method)) return false;
  const site = request.headers["sec-fetch-site"];
  if (typeof site === "string") return site !== "same-origin" && site !== "none";
  const origin = request.headers.origin;
  if (typeof origin !== "string") return false;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

export async function rejectCrossSite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  if (isCrossSite(request)) {
    await reply.code(403).send({ messages: ["Cross-site requests are not allowed"] });
  }
}

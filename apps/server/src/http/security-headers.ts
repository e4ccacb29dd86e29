// Security headers on every response, pages, API and downloads alike (helmet, configured once): scripts only from
// this origin, no framing, no MIME sniffing, no referrer to other sites.
import type { FastifyReply, FastifyRequest } from "fastify";
import helmet from "helmet";

const headers = helmet({
  contentSecurityPolicy: {
    // No upgrade-insecure-requests: a lab server is often reached over plain HTTP by its address.
    useDefaults: false,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      scriptSrcAttr: ["'none'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", "data:"],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
    },
  },
  // The same-origin check of state-changing calls reads Origin, which browsers drop under no-referrer.
  referrerPolicy: { policy: "same-origin" },
  // HTTPS is a proxy's business: its other host names are not ours to pin.
  strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  xFrameOptions: { action: "deny" },
});

/** onRequest hook: sets the headers on the raw response, so hijacked replies (event streams) carry them too. */
export function securityHeaders(request: FastifyRequest, reply: FastifyReply, done: (error?: Error) => void): void {
  headers(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined));
}

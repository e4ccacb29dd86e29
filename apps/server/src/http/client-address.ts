// The key a request's client is counted under for sign-in slow-down and registration limits: its address (the
// proxy's X-Forwarded-For with TRACEMILL_TRUST_PROXY), an IPv6 address by its /64, which one subscriber usually has
// whole.
import { normalizeIP } from "@fastify/rate-limit";
import type { FastifyRequest } from "fastify";

export const clientAddress = (request: FastifyRequest): string => normalizeIP(request.ip, 64);

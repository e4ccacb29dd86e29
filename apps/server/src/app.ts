// Builds the Fastify application: the JSON API under /api, the original product's calls, and the web app.
import fs from "node:fs";
import path from "node:path";
import fastifyCookie from "@fastify/cookie";
import fastifyMultipart from "@fastify/multipart";
import fastifyRateLimit from "@fastify/rate-limit";
import type { Health } from "@tracemill/contracts";
import { TRACEMILL_VERSION } from "@tracemill/engine";
import Fastify, { type FastifyError, type FastifyInstance } from "fastify";
import type { ServerConfig } from "./config.js";
import { openContext } from "./context.js";
import { answerClientError } from "./http/client-errors.js";
import { rejectCrossSite } from "./http/csrf.js";
import { openApiDocument } from "./http/openapi.js";
import { securityHeaders } from "./http/security-headers.js";
import { serveWebApp } from "./http/web-assets.js";
import { apiAuthRoutes } from "./routes/api-auth.js";
import { apiExplorerRoutes } from "./routes/api-explorer.js";
import { apiJobRoutes } from "./routes/api-jobs.js";
import { apiLibraryRoutes } from "./routes/api-libraries.js";
import { apiPictureRoutes } from "./routes/api-pictures.js";
import { legacyRoutes } from "./routes/legacy.js";
import { resourceRoutes } from "./routes/resources.js";
import { HttpError } from "./services/http-error.js";
import { DISK_FULL, isDiskFull } from "./storage/disk-full.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /** Routes of the original product answer failures with a bare list of messages. */
    legacy?: boolean;
  }
}

export async function buildApp(config: ServerConfig): Promise<FastifyInstance> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const ctx = await openContext(config);
  // Open event streams must not hold a shutdown: close drops every connection.
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    forceCloseConnections: true,
    trustProxy: config.trustProxy,
    clientErrorHandler: answerClientError,
  });

  // Calls without a body (the original client's /sesion, /logout) may still say they send JSON: read that as no body.
  const json = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) =>
    body === "" ? done(null, undefined) : json(request, body as string, done),
  );
  // First, so that every answer carries them, refusals and errors included.
  app.addHook("onRequest", securityHeaders);
  await app.register(fastifyCookie);
  // Only where a route asks for it (registration); sign-in has its own slow-down (services/sign-in-throttle.ts).
  await app.register(fastifyRateLimit, { global: false });
  await app.register(fastifyMultipart, { limits: { fileSize: config.maxUploadBytes, files: 1, fields: 10 } });
  app.addHook("onRequest", rejectCrossSite);
  // Expired sessions are refused anyway; removing them hourly keeps the table small. A sweep that fails (a full
  // disk) waits for the next one.
  const sweep = setInterval(() => void ctx.accounts.removeExpiredSessions().catch(() => {}), 3_600_000);
  sweep.unref();
  app.addHook("onReady", async () => {
    await ctx.accounts.removeExpiredSessions().catch(() => {});
  });
  // Jobs run only once the server answers: a server that cannot listen (port taken) must not run any.
  app.addHook("onListen", async () => {
    await ctx.runner.start();
  });
  app.addHook("onClose", async () => {
    clearInterval(sweep);
    await ctx.close();
  });

  app.setErrorHandler((error: FastifyError | HttpError, request, reply) => {
    let status = 500;
    let messages = ["Internal server error"];
    if (error instanceof HttpError) {
      status = error.status;
      messages = error.messages;
    } else if (isDiskFull(error)) {
      status = 507;
      messages = [DISK_FULL];
    } else if (error.statusCode && error.statusCode < 500) {
      status = error.statusCode;
      messages = [error.statusCode === 413 ? "The request is too large" : `Bad request: ${error.message}`];
    } else {
      request.log.error(error);
      process.stderr.write(`tracemill: ${request.method} ${request.url}: ${error.stack ?? error.message}\n`);
    }
    return reply.code(status).send(request.routeOptions.config?.legacy ? messages : { messages });
  });

  app.get("/api/health", async (): Promise<Health> => ({ status: "ok", version: TRACEMILL_VERSION }));
  const openApi = openApiDocument();
  app.get("/api/openapi.json", async () => openApi);
  apiAuthRoutes(app, ctx);
  apiJobRoutes(app, ctx);
  apiExplorerRoutes(app, ctx);
  apiPictureRoutes(app, ctx);
  apiLibraryRoutes(app, ctx);
  legacyRoutes(app, ctx);
  resourceRoutes(app, ctx);

  const hasWebApp = config.webDir !== null && fs.existsSync(path.join(config.webDir, "index.html"));
  if (hasWebApp && config.webDir) await serveWebApp(app, config.webDir);
  // Client-side routes (/ui/...) and unknown paths get the app shell, which shows Home for them.
  app.setNotFoundHandler((request, reply) => {
    if (!hasWebApp || request.method !== "GET" || request.url.startsWith("/api/")) {
      return reply.code(404).send({ messages: ["Not found"] });
    }
    return reply.type("text/html").sendFile("index.html");
  });
  return app;
}

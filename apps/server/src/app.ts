// Builds the Fastify application: the JSON API under /api, the original product's calls, and the web app.
import fs from "node:fs";
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { Health } from "@tracemill/contracts";
import { TRACEMILL_VERSION } from "@tracemill/engine";
import Fastify, { type FastifyInstance } from "fastify";
import type { ServerConfig } from "./config.js";

export async function buildApp(config: ServerConfig): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });

  app.get("/api/health", async (): Promise<Health> => ({ status: "ok", version: TRACEMILL_VERSION }));

  if (config.webDir && fs.existsSync(path.join(config.webDir, "index.html"))) {
    await app.register(fastifyStatic, { root: config.webDir, prefix: "/", wildcard: false });
    // Client-side routes (/ui/...) and unknown paths get the app shell, which shows Home for them.
    app.setNotFoundHandler((request, reply) => {
      if (request.method !== "GET" || request.url.startsWith("/api/")) {
        return reply.code(404).send({ messages: ["Not found"] });
      }
      return reply.type("text/html").sendFile("index.html");
    });
  }
  return app;
}

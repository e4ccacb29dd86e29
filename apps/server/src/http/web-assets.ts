// How the built web app is served: Vite's content-hashed files under assets/ are cached for a year and never
// revalidated (a new build has new names); index.html and other unhashed files are revalidated on every visit.
// Both go out as the brotli or gzip copy the build wrote beside them (apps/web/vite-precompress.ts) when the
// browser accepts it, so nothing is compressed per request.
import path from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply } from "fastify";

export const IMMUTABLE = "public, max-age=31536000, immutable";
export const REVALIDATE = "no-cache";

export async function serveWebApp(app: FastifyInstance, webDir: string): Promise<void> {
  const hashed = path.join(path.resolve(webDir), "assets") + path.sep;
  await app.register(fastifyStatic, {
    root: webDir,
    prefix: "/",
    wildcard: false,
    preCompressed: true,
    setHeaders: (reply: FastifyReply, file: string) => {
      reply.header("cache-control", file.startsWith(hashed) ? IMMUTABLE : REVALIDATE);
    },
  });
}

// /code (the running version's source as app.tar.gz) and /sampledatasets: downloads for signed-in users only.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { contentDisposition, sendFile } from "../http/send-file.js";
import { currentUser } from "../http/session-cookie.js";
import { HttpError, signInRequired } from "../services/http-error.js";

export function resourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userOf = currentUser(ctx.accounts);
  const legacy = { config: { legacy: true } };

  app.get("/code", legacy, async (request, reply) => {
    if (!(await userOf(request))) throw signInRequired();
    const source = ctx.sourceArchive;
    if (source.kind === "file") return sendFile(request, reply, source.path, "app.tar.gz");
    if (source.kind === "none") {
      throw new HttpError(404, [
        "The source archive is not available: this installation is not a git checkout and its build made none",
      ]);
    }
    return reply
      .header("Content-Type", "application/gzip")
      .header("Content-Disposition", contentDisposition("app.tar.gz"))
      .send(source.open());
  });

  app.get("/sampledatasets", legacy, async (request, reply) => {
    if (!(await userOf(request))) throw signInRequired();
    return sendFile(request, reply, await ctx.samples.archive(), "sampledatasets.tar.gz");
  });
}

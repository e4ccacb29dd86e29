// The image gallery and the IPT plots on a job's outputs: each route parses and calls one service function.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import { currentUser } from "../http/session-cookie.js";

type OutputParams = FastifyRequest<{ Params: { id: string; name: string } }>;
type ImageParams = FastifyRequest<{ Params: { id: string; name: string; number: string } }>;

export function apiPictureRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userOf = currentUser(ctx.accounts);

  app.get("/api/jobs/:id/outputs/:name/images", async (request: OutputParams) =>
    ctx.pictures.galleryPage(await userOf(request), request.params.id, request.params.name, request.query),
  );

  app.get("/api/jobs/:id/outputs/:name/images/:number", async (request: ImageParams, reply) => {
    const { id, name, number } = request.params;
    const png = await ctx.pictures.image(await userOf(request), id, name, number);
    // An output never changes once written; "private" keeps shared caches from holding another user's image.
    return reply.header("Content-Type", "image/png").header("Cache-Control", "private, max-age=3600").send(png);
  });

  app.get("/api/jobs/:id/outputs/:name/sessions", async (request: OutputParams) =>
    ctx.pictures.iptSessions(await userOf(request), request.params.id, request.params.name, request.query),
  );

  app.get("/api/jobs/:id/outputs/:name/series", async (request: OutputParams) =>
    ctx.pictures.iptSeries(await userOf(request), request.params.id, request.params.name, request.query),
  );
}

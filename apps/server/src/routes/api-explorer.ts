// The feature explorer's calls on a job's output table: each route parses and calls one service function.
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import { currentUser } from "../http/session-cookie.js";

type OutputParams = FastifyRequest<{ Params: { id: string; name: string } }>;
type ColumnParams = FastifyRequest<{ Params: { id: string; name: string; column: string } }>;

export function apiExplorerRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userOf = currentUser(ctx.accounts);

  app.get("/api/jobs/:id/outputs/:name/columns", async (request: OutputParams) =>
    ctx.explorer.columns(await userOf(request), request.params.id, request.params.name),
  );

  app.get("/api/jobs/:id/outputs/:name/columns/:column", async (request: ColumnParams) => {
    const { id, name, column } = request.params;
    return ctx.explorer.column(await userOf(request), id, name, column, request.query);
  });
}

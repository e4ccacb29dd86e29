// /api/libraries: the capture libraries signed-in users browse for job inputs; each route parses and calls one service function.
import type { FastifyInstance } from "fastify";
import type { AppContext } from "../context.js";
import { requireSignIn } from "../http/require-sign-in.js";
import { currentUser } from "../http/session-cookie.js";
import { HttpError } from "../services/http-error.js";

export function apiLibraryRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userOf = currentUser(ctx.accounts);
  const signedIn = { onRequest: requireSignIn(userOf) };

  app.get("/api/libraries", signedIn, async (request) => ctx.libraries.list(await userOf(request)));

  app.get<{ Params: { name: string }; Querystring: { path?: unknown } }>(
    "/api/libraries/:name/entries",
    signedIn,
    async (request) => {
      const folder = request.query.path ?? "";
      if (typeof folder !== "string") throw new HttpError(400, ["Give one folder as ?path=sub/folder"]);
      return ctx.libraries.entries(await userOf(request), request.params.name, folder);
    },
  );
}

// /api/files, /api/jobs and their downloads and live progress: each route parses and calls one service function.
import type {} from "@fastify/multipart";
import type { FeatureSetInfo, Ruleset } from "@tracemill/contracts";
import { bundledRulesetsDir, listRulesets, type RulesetFigures, rulesetFigures } from "@tracemill/engine";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { AppContext } from "../context.js";
import { streamJobEvents } from "../http/job-events.js";
import { requireSignIn } from "../http/require-sign-in.js";
import { safeName, sendFile } from "../http/send-file.js";
import { sendZip } from "../http/send-zip.js";
import { currentUser } from "../http/session-cookie.js";
import { featureSetList } from "../services/feature-sets.js";
import { HttpError } from "../services/http-error.js";

type WithId = FastifyRequest<{ Params: { id: string } }>;

export function apiJobRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userOf = currentUser(ctx.accounts);
  const signedIn = { onRequest: requireSignIn(userOf) };

  app.get("/api/files", async (request) => ctx.uploads.list(await userOf(request)));

  app.post("/api/files", signedIn, async (request, reply) => {
    const { file, created } = await ctx.uploads.upload(await userOf(request), () => incomingFile(request));
    return reply.code(created ? 201 : 200).send(file);
  });
  app.post("/api/files/lookup", signedIn, async (request) => ctx.uploads.lookup(await userOf(request), request.body));
  app.delete("/api/files/:id", async (request: WithId, reply) => {
    await ctx.uploads.remove(await userOf(request), request.params.id);
    return reply.code(204).send();
  });

  app.get("/api/rulesets", async (): Promise<Ruleset[]> => {
    const bundled = await listRulesets(bundledRulesetsDir);
    // Adding a ruleset refuses bundled names; one copied in by hand under such a name is not offered.
    const own = (await listRulesets(ctx.config.rulesetsDir)).filter((r) => !bundled.some((b) => b.name === r.name));
    return Promise.all(
      [...bundled, ...own].map(async (r) => ({
        id: r.name,
        name: r.name,
        description: describe(await rulesetFigures(r)),
      })),
    );
  });

  app.get("/api/feature-sets", async (): Promise<FeatureSetInfo[]> => featureSetList());

  app.get("/api/jobs", async (request) => ctx.jobs.pageMine(await userOf(request), request.query));
  app.get("/api/jobs/public", async (request) => ctx.jobs.pagePublic(await userOf(request), request.query));
  app.post("/api/jobs", signedIn, async (request, reply) =>
    reply.code(201).send(await ctx.jobs.create(await userOf(request), request.body)),
  );
  app.get("/api/jobs/:id", async (request: WithId) => ctx.jobs.get(await userOf(request), request.params.id));
  app.get("/api/jobs/:id/lineage", async (request: WithId) =>
    ctx.jobs.lineage(await userOf(request), request.params.id),
  );
  app.patch("/api/jobs/:id", async (request: WithId) =>
    ctx.jobs.update(await userOf(request), request.params.id, request.body),
  );
  app.delete("/api/jobs/:id", async (request: WithId, reply) => {
    await ctx.jobs.remove(await userOf(request), request.params.id);
    return reply.code(204).send();
  });
  app.post("/api/jobs/:id/cancel", async (request: WithId) =>
    ctx.jobs.cancel(await userOf(request), request.params.id),
  );
  app.post("/api/jobs/:id/retry", async (request: WithId, reply) =>
    reply.code(201).send(await ctx.jobs.retry(await userOf(request), request.params.id)),
  );

  app.get("/api/jobs/:id/events", async (request: WithId, reply) => {
    const user = await userOf(request);
    await ctx.jobs.readable(request.params.id, user);
    streamJobEvents(request, reply, ctx, user, request.params.id);
  });

  app.get("/api/jobs/:id/outputs.zip", async (request: WithId, reply) => {
    const { job, files } = await ctx.jobs.outputs(await userOf(request), request.params.id);
    return sendZip(reply, `${safeName(job.title, job.id)}.zip`, files);
  });

  app.get(
    "/api/jobs/:id/outputs/:name",
    async (request: FastifyRequest<{ Params: { id: string; name: string } }>, reply) => {
      const output = await ctx.jobs.output(await userOf(request), request.params.id, request.params.name);
      return sendFile(request, reply, output.path, `${safeName(output.job.title, output.job.id)}_${output.name}`);
    },
  );
}

/** "2 rules files, 1,234 rules, own classification.config" */
function describe(figures: RulesetFigures): string {
  const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;
  const classification = figures.ownClassification ? "own classification.config" : "Suricata's classification.config";
  return `${plural(figures.ruleFiles, "rules file")}, ${plural(figures.rules, "rule")}, ${classification}`;
}

/**
 * The multipart field "file" as a stream (never buffered), or undefined when the request has none. A body the
 * multipart parser cannot read (no boundary, cut off, malformed headers) is the client's fault: 400.
 */
export async function incomingFile(request: FastifyRequest) {
  if (!request.isMultipart()) return undefined;
  let part: Awaited<ReturnType<FastifyRequest["file"]>>;
  try {
    part = await request.file();
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status !== undefined && status < 500) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new HttpError(400, [`The multipart body could not be read: ${reason}`]);
  }
  if (!part) return undefined;
  const { filename, file } = part;
  return { name: filename, stream: file, truncated: () => file.truncated };
}

// The original product's calls (SPEC.md §7) at their spelled paths, mapped onto the same services as /api.
// Failures answer with a bare list of messages, which is what the original client shows as banners.
import {
  type Capability,
  captureFormats,
  type FileFormat,
  type FileRef,
  type InputRole,
  legacyCapabilityRequest,
  legacyDownloadRequest,
  legacyIdRequest,
  legacyUpdateRequest,
} from "@tracemill/contracts";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { ZodType, z } from "zod";
import type { AppContext } from "../context.js";
import { clientAddress } from "../http/client-address.js";
import { registrationLimit } from "../http/registration-limit.js";
import { requireSignIn } from "../http/require-sign-in.js";
import { safeName, sendFile } from "../http/send-file.js";
import { sendZip } from "../http/send-zip.js";
import { clearSessionCookie, currentUser, sessionToken, setSessionCookie } from "../http/session-cookie.js";
import { validationError } from "../services/http-error.js";
import { incomingFile } from "./api-jobs.js";

const legacy = { config: { legacy: true } };

interface CapabilityCall {
  capability: Capability;
  params?: Record<string, unknown>;
  /** Which request field feeds which input role. */
  roles: Partial<Record<"file" | "badTraffic" | "u2" | "classification", InputRole>>;
}

const capabilityCalls: Record<string, CapabilityCall> = {
  "/extract/features": { capability: "extract", roles: { file: "capture" } },
  "/extract/featuresAndLabeling": {
    capability: "label",
    params: { mode: "binary" },
    roles: { file: "capture", badTraffic: "attacks" },
  },
  "/extract/featuresAndClass": {
    capability: "label",
    params: { mode: "multiclass" },
    roles: { file: "capture", u2: "alerts", classification: "classification" },
  },
  "/clear/dataset": { capability: "sanitize", roles: { file: "capture" } },
  "/merge/dataset": { capability: "merge", roles: { file: "background", badTraffic: "attacks" } },
  "/extract/images": { capability: "images", roles: { file: "capture" } },
  "/extract/ipts": { capability: "ipt", roles: { file: "capture" } },
};

function parse<T extends ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body ?? {});
  if (!result.success) throw validationError(result.error);
  return result.data;
}

export function legacyRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userOf = currentUser(ctx.accounts);
  const signedIn = { ...legacy, onRequest: requireSignIn(userOf) };

  const registration = { ...legacy, onRequest: registrationLimit(app, ctx.config.registrationsPerHour) };
  app.post("/singup", registration, async (request) => ctx.accounts.register(request.body));
  app.post("/singin", legacy, async (request, reply) => {
    const { user, token, expires } = await ctx.accounts.signIn(request.body, clientAddress(request));
    setSessionCookie(request, reply, token, expires);
    return user;
  });
  app.post("/sesion", legacy, async (request) => {
    const user = await userOf(request);
    return user ? { userName: user.userName, email: user.email } : {};
  });
  app.post("/logout", legacy, async (request, reply) => {
    await ctx.accounts.signOut(sessionToken(request));
    clearSessionCookie(reply);
    return { ok: true };
  });

  app.get("/dataSets", legacy, async (request) => ctx.jobs.listMine(await userOf(request)));
  app.get("/public/dataSets", legacy, async (request) => ctx.jobs.listPublic(await userOf(request)));
  app.post("/dataSet/", legacy, async (request) =>
    ctx.jobs.get(await userOf(request), parse(legacyIdRequest, request.body)._id),
  );
  app.post("/new", signedIn, async (request) => ctx.jobs.create(await userOf(request), request.body));
  app.put("/update", legacy, async (request) => {
    const { _id, ...changes } = parse(legacyUpdateRequest, request.body);
    return ctx.jobs.update(await userOf(request), _id, changes);
  });
  app.post("/delete", legacy, async (request) => {
    const { _id } = parse(legacyIdRequest, request.body);
    await ctx.jobs.remove(await userOf(request), _id);
    return { _id, deleted: true };
  });
  app.post("/dowload", legacy, async (request, reply) => {
    const { _id, file } = parse(legacyDownloadRequest, request.body);
    const user = await userOf(request);
    if (file) {
      const output = await ctx.jobs.output(user, _id, file);
      return sendFile(request, reply, output.path, `${safeName(output.job.title, output.job.id)}_${output.name}`);
    }
    const { job, files } = await ctx.jobs.outputs(user, _id);
    return sendZip(reply, `${safeName(job.title, job.id)}.zip`, files);
  });

  const uploads: Record<string, readonly FileFormat[]> = {
    "/upfile": captureFormats,
    "/upfile/badtrafic": captureFormats,
    "/upfile/u2": ["unified2", "eve-json"],
  };
  for (const [path, accept] of Object.entries(uploads)) {
    app.post(path, signedIn, async (request: FastifyRequest) => {
      const { file } = await ctx.uploads.upload(await userOf(request), () => incomingFile(request), accept);
      return { ...file, _id: file.id };
    });
  }

  for (const [path, call] of Object.entries(capabilityCalls)) {
    app.post(path, signedIn, async (request) => {
      const body = parse(legacyCapabilityRequest, request.body);
      const inputs: Partial<Record<InputRole, FileRef>> = {};
      for (const [field, role] of Object.entries(call.roles) as [keyof typeof call.roles, InputRole][]) {
        const fileId = body[field];
        if (fileId) inputs[role] = { fileId };
      }
      return ctx.jobs.create(await userOf(request), {
        title: body.title,
        description: body.description,
        public: body.public,
        capability: call.capability,
        params: { ...body.params, ...call.params },
        inputs,
      });
    });
  }
}

// /code (the running version's source as app.tar.gz) and /sampledatasets: downloads for signed-in users only.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { FastifyInstance, FastifyReply } from "fastify";
import type { AppContext } from "../context.js";
import { contentDisposition, sendFile } from "../http/send-file.js";
import { currentUser } from "../http/session-cookie.js";
import { signInRequired } from "../services/http-error.js";

/** The repository root: this file sits at apps/server/{src,dist}/routes/. */
// From this module's real path: the URL it was loaded by may go through node_modules/@tracemill/server (a link).
const repoRoot = path.resolve(path.dirname(fs.realpathSync(fileURLToPath(import.meta.url))), "../../../..");

/** Streams a program's stdout as a .tar.gz download; arguments go to the program as a list, never through a shell. */
function sendArchive(reply: FastifyReply, name: string, command: string, args: string[]) {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "ignore"] });
  child.on("error", () => child.stdout.destroy(new Error(`${command} could not run`)));
  return reply
    .header("Content-Type", "application/gzip")
    .header("Content-Disposition", contentDisposition(name))
    .send(child.stdout);
}

export function resourceRoutes(app: FastifyInstance, ctx: AppContext): void {
  const userOf = currentUser(ctx.accounts);
  const legacy = { config: { legacy: true } };

  app.get("/code", legacy, async (request, reply) => {
    if (!(await userOf(request))) throw signInRequired();
    if (fs.existsSync(path.join(repoRoot, ".git"))) {
      return sendArchive(reply, "app.tar.gz", "git", [
        "-C",
        repoRoot,
        "archive",
        "--format=tar.gz",
        "--prefix=tracemill/",
        "HEAD",
      ]);
    }
    return sendArchive(reply, "app.tar.gz", "tar", [
      "-czf",
      "-",
      "--exclude=node_modules",
      "--exclude=./data",
      "--exclude=dist",
      "-C",
      repoRoot,
      ".",
    ]);
  });

  app.get("/sampledatasets", legacy, async (request, reply) => {
    if (!(await userOf(request))) throw signInRequired();
    return sendFile(request, reply, await ctx.samples.archive(), "sampledatasets.tar.gz");
  });
}

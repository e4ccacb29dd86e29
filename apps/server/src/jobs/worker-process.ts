// Entry of a worker process: runs one job's capability and reports progress and the result over IPC.
// A crash here ends only this process; the server marks the job failed.
import fs from "node:fs";
import path from "node:path";
import type { InputRole } from "@tracemill/contracts";
import type { CapabilityResult } from "@tracemill/engine";
import { withResultWarnings } from "@tracemill/engine/result-warnings";
import { DISK_FULL_JOB_ERROR, isDiskFull } from "../storage/disk-full.js";
import { sha256OfFile } from "../storage/file-digest.js";
import type { CapabilityRun } from "./capabilities.js";
import { borrowedDaemons } from "./daemon-lending.js";
import { uploadedName } from "./uploaded-name.js";
import { serverDirs, withoutServerPaths } from "./user-paths.js";
import type { FromWorker, RunInput, RunMessage, ToWorker } from "./worker-messages.js";

const controller = new AbortController();
/**
 * Loaded for a capability's run only: a combining run, which waits on the end of a job's last part, needs neither the
 * contracts' schemas nor the engine's index.
 */
let capabilities: Promise<typeof import("./capabilities.js")> | null = null;
/** Loaded Suricatas borrowed from the pool, when it lends them (RunMessage.suricataDaemons). */
const daemons = borrowedDaemons();

function send(message: FromWorker): Promise<void> {
  return new Promise((resolve) => process.send?.(message, undefined, {}, () => resolve()));
}

/**
 * Inflates gzip inputs into the work directory (the engine reads plain files), and reaches every input under the name
 * it was uploaded as: the engine's summaries name inputs by file name, and stored files are named by id.
 */
async function plainInputs(message: RunMessage): Promise<Record<string, string>> {
  const paths: Record<string, string> = {};
  for (const [role, input] of Object.entries(message.inputs)) {
    // One directory per role: two inputs may have been uploaded under the same name.
    if (input) paths[role] = await plainInput(input, path.join(message.workDir, "inputs", role), role);
  }
  return paths;
}

/** The inputs a capability reads as lists, each reached like a single one, in a directory of its own. */
async function plainLists(message: RunMessage): Promise<NonNullable<CapabilityRun["lists"]>> {
  const lists: NonNullable<CapabilityRun["lists"]> = {};
  for (const [role, list] of Object.entries(message.lists ?? {})) {
    const plain = [];
    for (const [index, input] of list.entries()) {
      const file = await plainInput(input, path.join(message.workDir, "lists", role, String(index)), role);
      // The stored file's digest holds for the file the engine reads unless it was inflated here.
      const sha256 = input.compression === "gzip" ? undefined : input.sha256;
      plain.push({ path: file, position: input.position, ...(sha256 && { sha256 }) });
    }
    lists[role as InputRole] = plain;
  }
  return lists;
}

async function plainInput(input: RunInput, dir: string, role: string): Promise<string> {
  // A worker that was stopped while running this job may have left the directory behind.
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const target = path.join(dir, uploadedName(input.name, input.compression === "gzip") ?? role);
  if (input.compression !== "gzip") {
    fs.symlinkSync(input.path, target);
    return target;
  }
  // The engine's one gunzip: bounded (a gzip bomb is refused), its errors naming the upload.
  const { gunzipToFile } = await import("@tracemill/engine/input");
  await gunzipToFile(input.path, target, { name: input.name ?? role, signal: controller.signal });
  return target;
}

/**
 * The typed errors of the core and the engine carry a code and a message written for users. A full disk, whatever
 * wrote last (the engine, the inflating of a gzip input, this file's summary rewrite), reads the same for everyone.
 */
function describe(error: unknown): { message: string; code: string } {
  if (isDiskFull(error)) return { code: "DISK_FULL", message: DISK_FULL_JOB_ERROR };
  const typed = error as { name?: string; code?: unknown; message?: unknown };
  if (typed?.name === "TracemillError" && typeof typed.code === "string") {
    return { code: typed.code, message: String(typed.message) };
  }
  if (controller.signal.aborted) return { code: "CANCELLED", message: "cancelled" };
  const detail = error instanceof Error ? error.message : String(error);
  return { code: "INTERNAL", message: `The job failed because of an internal error: ${detail}` };
}

async function run(message: RunMessage): Promise<void> {
  let lastSent = 0;
  let inputPaths: string[] = [];
  // The storage directory holds jobs/<id>/<run output directory> (storage/file-store.ts).
  const dirs = [
    message.outDir,
    message.workDir,
    ...serverDirs({ dataDir: path.resolve(message.outDir, "../../.."), rulesetsDir: message.rulesetsDir }),
  ];
  const hidePaths = (text: string) => withoutServerPaths(text, inputPaths, dirs);
  try {
    const options = {
      outDir: message.outDir,
      signal: controller.signal,
      onProgress: ({ percent, stage }: { percent: number; stage: string }) => {
        // Progress can come per packet; a few messages a second are plenty for the UI.
        const now = Date.now();
        if (now - lastSent < 200 && percent < 100) return;
        lastSent = now;
        process.send?.({ type: "progress", percent, stage } satisfies FromWorker);
      },
    };
    // Digests known without reading the file again: recorded for the files a combining run links in unchanged (its
    // parts' outputs), taken while it wrote the files it joined.
    const known = new Map<string, string>();
    let result: CapabilityResult;
    if (message.parts) {
      const { combineParts, partFileName } = await import("@tracemill/engine/combine");
      const parts = message.parts;
      parts.forEach((part, index) => {
        for (const output of part.outputs) {
          if (output.sha256) known.set(partFileName(index, parts.length, part.capture, output.name), output.sha256);
        }
      });
      const combined = await combineParts(parts, options);
      for (const [name, digest] of combined.digests) known.set(name, digest);
      result = combined;
    } else {
      capabilities = import("./capabilities.js");
      const runner = await (await capabilities).capabilityRunner(message.capability, message.testEngineModule);
      // A cancel may arrive while the capability's code is still loading.
      controller.signal.throwIfAborted();
      const inputs = await plainInputs(message);
      const lists = await plainLists(message);
      inputPaths = [...Object.values(inputs), ...Object.values(lists).flatMap((list) => list.map((i) => i.path))];
      // The stored files' digests hold for the files the engine reads unless they were inflated here.
      const hashes = Object.fromEntries(
        Object.entries(message.inputs).flatMap(([role, input]) =>
          input?.sha256 && input.compression !== "gzip" ? [[role, input.sha256]] : [],
        ),
      );
      result = await runner(
        {
          inputs,
          hashes,
          ...(message.lists && { lists }),
          params: message.params,
          rulesetsDir: message.rulesetsDir,
          ...(message.suricataDaemons && { daemons }),
        },
        options,
      );
    }
    // The summary file says what the job's summary says (the engine wrote it naming the paths it was given), with
    // what is suspect about the result listed as the CLI lists it.
    for (const output of result.outputs.filter((o) => o.kind === "summary-json" && !known.has(o.name))) {
      const summaryFile = path.join(message.outDir, output.name);
      const written = withResultWarnings(JSON.parse(hidePaths(fs.readFileSync(summaryFile, "utf8"))));
      fs.writeFileSync(summaryFile, `${JSON.stringify(written, null, 2)}\n`);
    }
    const outputs = [];
    for (const output of result.outputs) {
      const sha256 = known.get(output.name) ?? (await sha256OfFile(path.join(message.outDir, output.name)));
      outputs.push({ ...output, sha256 });
    }
    await send({
      type: "done",
      outputs,
      summary: withResultWarnings(JSON.parse(hidePaths(JSON.stringify(result.summary)))),
    });
  } catch (error) {
    const failure = describe(error);
    await send({ type: "failed", ...failure, message: hidePaths(failure.message) });
  } finally {
    fs.rmSync(message.workDir, { recursive: true, force: true });
  }
}

/** How long a job cancelled because the server went away may take to stop before its process exits anyway. */
const ORPHAN_GRACE_MS = 10_000;
let running = false;

/** Exits once the engine's worker threads have ended: exiting terminates them at once, quiet or not (engine/hashing). */
function exitWhenRetired(code: number): void {
  void (capabilities ?? Promise.resolve(null))
    .then((loaded) => loaded?.engineWorkersRetired())
    .finally(() => process.exit(code));
}

process.on("message", (message: ToWorker) => {
  if (message.type === "cancel") controller.abort();
  if (message.type.startsWith("suricata-")) daemons.onReply(message as Parameters<typeof daemons.onReply>[0]);
  if (message.type === "run") {
    running = true;
    run(message).then(
      () => exitWhenRetired(0),
      () => exitWhenRetired(1),
    );
  }
});
// The server going away (even by a crash) ends its workers: a running job is cancelled and ends as above.
process.on("disconnect", () => {
  if (!running) process.exit(0);
  controller.abort();
  setTimeout(() => process.exit(0), ORPHAN_GRACE_MS).unref();
});

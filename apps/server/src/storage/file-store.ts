// The shared-directory storage: files under one root (the storage directory, by default the data directory), by file
// and job id only, never by a name a user chose. Every file appears under its final name only when complete: written
// under a temporary name in the same directory (the same file system: a rename, never a copy) and renamed.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sha256OfFile } from "./file-digest.js";
import { checkComplete, SNIFF_BYTES, type Sniffed, sniffFormat } from "./sniff-format.js";
import type { JobRun, Storage, StoredUpload } from "./storage.js";

export class UploadTooLarge extends Error {}

/** The request carrying the upload failed (a malformed multipart body, a body cut off): the client's fault. */
export class UploadBroken extends Error {}

/** The upload's chunks, a failure of the request itself turned into UploadBroken (a failed write stays as it is). */
async function* requestChunks(source: AsyncIterable<Buffer>): AsyncGenerator<Buffer> {
  try {
    for await (const chunk of source) yield chunk;
  } catch (error) {
    throw new UploadBroken(error instanceof Error ? error.message : String(error), { cause: error });
  }
}

/** A name no stored file or job directory has: a temporary file or a run's directory beside the final one. */
const temporaryName = (prefix: string) => `${prefix}.${crypto.randomBytes(6).toString("hex")}.part`;

export function fileStore(root: string): Storage {
  const filesDir = path.join(root, "files");
  const jobsDir = path.join(root, "jobs");
  fs.mkdirSync(filesDir, { recursive: true });
  fs.mkdirSync(jobsDir, { recursive: true });
  const jobDir = (jobId: string) => path.join(jobsDir, jobId);
  const outputPath = (jobId: string, name: string) => path.join(jobsDir, jobId, "out", name);

  return {
    root,
    filePath: (fileId: string) => path.join(filesDir, fileId),
    outputPath,
    outputSize: (jobId: string, name: string) => fs.statSync(outputPath(jobId, name)).size,
    // Beside out/ in the job's directory: removeJob and a new run (startRun) take it away with the outputs.
    cacheDir: (jobId: string) => path.join(jobDir(jobId), "cache"),

    async save(fileId: string, source: Readable, isTruncated: () => boolean): Promise<StoredUpload> {
      const target = path.join(filesDir, fileId);
      const partial = `${target}.part`;
      const hash = crypto.createHash("sha256");
      const headChunks: Buffer[] = [];
      let headLength = 0;
      let size = 0;
      let sniffed: Sniffed | null = null;
      try {
        await pipeline(
          // Not the stream itself: the pipeline would then report the request's failure as it is, not as UploadBroken.
          requestChunks(source),
          async function* (chunks: AsyncIterable<Buffer>) {
            for await (const chunk of chunks) {
              hash.update(chunk);
              size += chunk.length;
              if (!sniffed && headLength < SNIFF_BYTES) {
                headChunks.push(chunk);
                headLength += chunk.length;
                // Reject a wrong file as soon as its start is known, not after gigabytes.
                if (headLength >= SNIFF_BYTES) sniffed = await sniffFormat(Buffer.concat(headChunks), false);
              }
              yield chunk;
            }
          },
          fs.createWriteStream(partial),
        );
        if (isTruncated()) throw new UploadTooLarge("too large");
        const head = Buffer.concat(headChunks).subarray(0, SNIFF_BYTES);
        sniffed ??= await sniffFormat(head, headLength < SNIFF_BYTES);
        if (!sniffed.compression) checkComplete(sniffed.format, head, size);
        fs.renameSync(partial, target);
        return { ...sniffed, size, sha256: hash.digest("hex") };
      } catch (error) {
        fs.rmSync(partial, { force: true });
        throw error;
      }
    },

    async sniffOutput(jobId: string, name: string): Promise<Sniffed> {
      const head = Buffer.alloc(SNIFF_BYTES);
      const handle = await fs.promises.open(outputPath(jobId, name), "r");
      const { bytesRead: length } = await handle.read(head, 0, SNIFF_BYTES, 0).finally(() => handle.close());
      return sniffFormat(head.subarray(0, length), length < SNIFF_BYTES);
    },

    /** A hard link when possible (chains cost no space, and a link is whole at once), else a copy renamed in. */
    async importOutput(jobId: string, name: string, toId: string, sha256: string | null): Promise<string> {
      const source = outputPath(jobId, name);
      const target = path.join(filesDir, toId);
      try {
        fs.linkSync(source, target);
      } catch {
        const partial = temporaryName(target);
        try {
          fs.copyFileSync(source, partial);
          fs.renameSync(partial, target);
        } catch (error) {
          fs.rmSync(partial, { force: true });
          throw error;
        }
      }
      return sha256 ?? (await sha256OfFile(source));
    },

    startRun(jobId: string): JobRun {
      // An earlier run's leftovers (a run of a worker that died) are of no use: its outputs were never published.
      fs.rmSync(jobDir(jobId), { recursive: true, force: true });
      // Run directories beside out/, so that a job's files stay under its own directory whichever run wrote them.
      const run = {
        outDir: temporaryName(path.join(jobDir(jobId), "out")),
        workDir: temporaryName(path.join(jobDir(jobId), "work")),
      };
      fs.mkdirSync(run.outDir, { recursive: true });
      return run;
    },

    publishRun(jobId: string, run: JobRun): void {
      const out = path.join(jobDir(jobId), "out");
      fs.rmSync(out, { recursive: true, force: true });
      fs.renameSync(run.outDir, out);
      fs.rmSync(run.workDir, { recursive: true, force: true });
    },

    removeFiles(ids: string[]): void {
      for (const id of ids) fs.rmSync(path.join(filesDir, id), { force: true });
    },
    removeJob(jobId: string): void {
      fs.rmSync(jobDir(jobId), { recursive: true, force: true });
    },
  };
}

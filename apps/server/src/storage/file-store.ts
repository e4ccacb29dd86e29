// Where files live under the data directory: by file and job id only, never by a name a user chose.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { sha256OfFile } from "./file-digest.js";
import { checkComplete, SNIFF_BYTES, type Sniffed, sniffFormat } from "./sniff-format.js";

export interface StoredUpload extends Sniffed {
  size: number;
  sha256: string;
}

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

export function fileStore(dataDir: string) {
  const filesDir = path.join(dataDir, "files");
  const jobsDir = path.join(dataDir, "jobs");
  fs.mkdirSync(filesDir, { recursive: true });
  fs.mkdirSync(jobsDir, { recursive: true });
  /** A job output's path, by its name as the job lists it (never a name from a request). */
  const outputPath = (jobId: string, name: string) => path.join(jobsDir, jobId, "out", name);

  return {
    filePath: (fileId: string) => path.join(filesDir, fileId),
    jobDir: (jobId: string) => path.join(jobsDir, jobId),
    outputDir: (jobId: string) => path.join(jobsDir, jobId, "out"),
    outputPath,
    workDir: (jobId: string) => path.join(jobsDir, jobId, "work"),

    /**
     * Streams an upload to disk under the file id, hashing as it goes and sniffing the format from the first bytes.
     * The file is only kept when it is complete and recognised.
     */
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

    /** A job output's format from its first bytes; UnrecognisedFile when it is no file a capability reads. */
    async sniffOutput(jobId: string, name: string): Promise<Sniffed> {
      const head = Buffer.alloc(SNIFF_BYTES);
      const handle = await fs.promises.open(outputPath(jobId, name), "r");
      const { bytesRead: length } = await handle.read(head, 0, SNIFF_BYTES, 0).finally(() => handle.close());
      return sniffFormat(head.subarray(0, length), length < SNIFF_BYTES);
    },

    /**
     * Brings a job's output in as a file of its own (a hard link when possible: chains cost no space) and gives its
     * SHA-256: the one the job recorded, else computed now.
     */
    async importOutput(jobId: string, name: string, toId: string, sha256: string | null): Promise<string> {
      const source = outputPath(jobId, name);
      try {
        fs.linkSync(source, path.join(filesDir, toId));
      } catch {
        fs.copyFileSync(source, path.join(filesDir, toId));
      }
      return sha256 ?? (await sha256OfFile(source));
    },

    removeFiles(ids: string[]): void {
      for (const id of ids) fs.rmSync(path.join(filesDir, id), { force: true });
    },
    removeJob(jobId: string): void {
      fs.rmSync(path.join(jobsDir, jobId), { recursive: true, force: true });
    },
  };
}

export type FileStore = ReturnType<typeof fileStore>;

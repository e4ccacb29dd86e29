// Joins CSV files with one header (the first file's; every other file must have the same) and header-less text
// files, byte for byte, into a file written under a temporary name and renamed when complete. The joined file's
// SHA-256 is taken from the bytes as they pass, so it is never read again.
import crypto from "node:crypto";
import fs from "node:fs";
import { TracemillError } from "@tracemill/core/errors";
import { OutputFile } from "../output/output-file.js";

const CHUNK_BYTES = 1 << 20;

export interface ConcatOptions {
  /** The files' first line is a header: written once, and the same in every file. */
  header: boolean;
  signal?: AbortSignal;
  /** Called with the bytes read so far, after each chunk. */
  onBytes?: (bytes: number) => void;
}

/** Joins the files into `target`; resolves with the SHA-256 (hex) of what it wrote. */
export async function concatText(sources: readonly string[], target: string, options: ConcatOptions): Promise<string> {
  const out = new OutputFile(target);
  const hash = crypto.createHash("sha256");
  const chunk = Buffer.alloc(CHUNK_BYTES);
  let header: Buffer | null = null;
  let read = 0;
  try {
    for (const source of sources) {
      const handle = await fs.promises.open(source, "r");
      try {
        let skip = 0;
        if (options.header) {
          const first = await firstLine(handle, chunk, source);
          if (header === null) header = first;
          else if (!first.equals(header)) {
            throw new TracemillError("BAD_INPUT", `${source}: its header differs from the first part's header`, {
              file: source,
            });
          }
          if (header !== first) skip = first.length;
        }
        for (let position = skip; ; ) {
          options.signal?.throwIfAborted();
          const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
          if (bytesRead === 0) break;
          out.write(chunk, 0, bytesRead);
          hash.update(chunk.subarray(0, bytesRead));
          position += bytesRead;
          read += bytesRead;
          options.onBytes?.(read);
        }
      } finally {
        await handle.close();
      }
    }
    await out.commit();
    return hash.digest("hex");
  } catch (error) {
    await out.discard();
    throw error;
  }
}

/** The file's first line with its line feed (a copy: the chunk is reused). */
async function firstLine(handle: fs.promises.FileHandle, chunk: Buffer, source: string): Promise<Buffer> {
  const pieces: Buffer[] = [];
  for (let position = 0; ; ) {
    const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, position);
    if (bytesRead === 0) {
      throw new TracemillError("BAD_INPUT", `${source}: it has no header line`, { file: source });
    }
    const end = chunk.subarray(0, bytesRead).indexOf(0x0a);
    if (end >= 0) {
      pieces.push(Buffer.from(chunk.subarray(0, end + 1)));
      return Buffer.concat(pieces);
    }
    pieces.push(Buffer.from(chunk.subarray(0, bytesRead)));
    position += bytesRead;
  }
}

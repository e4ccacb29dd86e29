// Recognises an upload from its first bytes with the one file-kind sniffer (@tracemill/core/file-kind); what is
// left here is what needs Node: inflating a gzip start off the event loop, and refusals as UnrecognisedFile.
import zlib from "node:zlib";
import {
  FILE_KIND_HEAD_BYTES,
  type FileKind,
  type FileKindResult,
  fileKindMessages,
  sizeProblem,
  sniffFileKind,
  sniffGzipContent,
} from "@tracemill/core/file-kind";

export interface Sniffed {
  format: FileKind;
  compression: "gzip" | null;
}

/** Bytes of the file's start that sniffing looks at. */
export const SNIFF_BYTES = FILE_KIND_HEAD_BYTES;

export class UnrecognisedFile extends Error {}

/**
 * Inflates the first SNIFF_BYTES of a gzip start (or less when that is all there is). Through zlib's stream, which
 * works on the thread pool a chunk at a time and is stopped once enough is out: a small bomb would otherwise inflate
 * a thousandfold on the event loop.
 */
function inflateStart(head: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // Sync flush at the end: a start cut mid-stream gives what it holds instead of "unexpected end of file".
    const gunzip = zlib.createGunzip({ finishFlush: zlib.constants.Z_SYNC_FLUSH, chunkSize: 16 * 1024 });
    const chunks: Buffer[] = [];
    let length = 0;
    let settled = false;
    const done = () => {
      if (settled) return;
      settled = true;
      gunzip.destroy();
      resolve(Buffer.concat(chunks).subarray(0, SNIFF_BYTES));
    };
    gunzip.on("data", (chunk: Buffer) => {
      chunks.push(chunk);
      length += chunk.length;
      if (length >= SNIFF_BYTES) done();
    });
    gunzip.on("end", done);
    gunzip.on("error", () => {
      if (settled) return;
      settled = true;
      reject(new UnrecognisedFile(fileKindMessages.gzipDamaged));
    });
    gunzip.end(head);
  });
}

/** The kind, or UnrecognisedFile with the sniffer's reason. */
function taken(result: FileKindResult): FileKind {
  if (result.problem !== undefined || result.kind === undefined || result.kind === "gzip") {
    throw new UnrecognisedFile(result.problem ?? fileKindMessages.gzipWithout);
  }
  return result.kind;
}

/**
 * Sniffs the start of a file. `totalKnown` says the head is the whole file.
 * Rejects with UnrecognisedFile with a reason a user can act on.
 */
export async function sniffFormat(head: Buffer, totalKnown: boolean): Promise<Sniffed> {
  const outer = sniffFileKind(head, { complete: totalKnown });
  if (outer.kind !== "gzip") return { format: taken(outer), compression: null };
  const inflated = await inflateStart(head);
  const content = sniffGzipContent(inflated, { complete: totalKnown && inflated.length < SNIFF_BYTES });
  return { format: taken(content), compression: "gzip" };
}

/** Checks found only once the whole file is known (the start alone cannot tell). */
export function checkComplete(format: FileKind, head: Buffer, size: number): void {
  const problem = sizeProblem(format, head, size);
  if (problem) throw new UnrecognisedFile(problem);
}

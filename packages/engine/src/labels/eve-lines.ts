// Splits an alert file into lines given as byte ranges of one reused buffer, never as strings: a line longer than
// EVE_LINE_LIMIT refuses the file, naming the line, before anything that big is held or decoded.
import { TracemillError } from "@tracemill/core";
import type { AlertInput } from "./alert-input.js";

/** Suricata's alert lines are kilobytes; 64 MiB leaves room for any packet or payload logged whole. */
export const EVE_LINE_LIMIT = 64 * 1024 * 1024;

/** Bytes read at a time. */
export const READ_BYTES = 1024 * 1024;

/** Line `line` (1-based) is bytes[start, end), without its newline or a carriage return before it. */
export type LineHandler = (bytes: Uint8Array, start: number, end: number, line: number) => void;

/**
 * Calls `onLine` for every line of `input`, which starts with the `filled` bytes already in `buffer` (read to sniff the
 * format); the last line needs no newline. `limit` is the longest line accepted, in bytes.
 */
export async function eachLine(
  input: AlertInput,
  first: { buffer: Buffer; filled: number },
  onLine: LineHandler,
  limit = EVE_LINE_LIMIT,
): Promise<void> {
  let b = first.buffer;
  let filled = first.filled;
  /** Start of the line being read, its number, and the file offset of b[0]. */
  let from = 0;
  let line = 1;
  let base = 0;
  let searched = 0;
  const deliver = (end: number) => {
    let stop = end;
    if (stop > from && b[stop - 1] === 13) stop--;
    // A byte order mark some editors put first is not part of the JSON.
    const start = line === 1 && b[from] === 0xef && b[from + 1] === 0xbb && b[from + 2] === 0xbf ? from + 3 : from;
    onLine(b, Math.min(start, stop), stop, line++);
  };
  for (;;) {
    // Searched within the bytes read: past them lie old or uninitialized bytes, up to megabytes of them.
    const read = b.subarray(0, filled);
    for (let nl = read.indexOf(10, searched); nl >= 0; nl = read.indexOf(10, from)) {
      if (nl - from > limit) throw tooLong(input.file, line, base + from, limit);
      deliver(nl);
      from = nl + 1;
    }
    searched = filled;
    if (filled - from > limit) throw tooLong(input.file, line, base + from, limit);
    if (from > 0) {
      b.copyWithin(0, from, filled);
      base += from;
      filled -= from;
      searched -= from;
      from = 0;
    }
    if (filled === b.length) {
      const grown = Buffer.allocUnsafe(Math.min(b.length * 2, limit + READ_BYTES));
      b.copy(grown, 0, 0, filled);
      b = grown;
    }
    const n = await input.read(b, filled, Math.min(b.length - filled, READ_BYTES));
    if (n === 0) {
      if (filled > 0) deliver(filled);
      return;
    }
    filled += n;
  }
}

function tooLong(file: string, line: number, offset: number, limit: number): TracemillError {
  const size = limit % (1024 * 1024) === 0 ? `${limit / (1024 * 1024)} MiB` : `${limit} bytes`;
  return new TracemillError(
    "BAD_INPUT",
    `${file}, line ${line} (from byte ${offset}): longer than ${size}, the longest line read (an alert line is a few kilobytes)`,
    { file, line, offset },
  );
}

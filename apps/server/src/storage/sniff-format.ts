// Recognises an upload from its first bytes: capture containers, alert files and Suricata text files.
import zlib from "node:zlib";
import type { FileFormat } from "@tracemill/contracts";

export interface Sniffed {
  format: FileFormat;
  compression: "gzip" | null;
}

/** Bytes of the file's start that sniffing looks at. */
export const SNIFF_BYTES = 64 * 1024;

export class UnrecognisedFile extends Error {}

const UNIFIED2_TYPES = new Set([2, 7, 72, 104, 105, 110]);

function sniffPcap(head: Buffer): FileFormat | null {
  if (head.length < 4) return null;
  const magic = head.readUInt32LE(0);
  const le = magic === 0xa1b2c3d4 || magic === 0xa1b23c4d;
  const be = magic === 0xd4c3b2a1 || magic === 0x4d3cb2a1;
  if (!le && !be) return null;
  if (head.length < 24) throw new UnrecognisedFile("The pcap file is truncated: its 24-byte header is incomplete");
  const major = le ? head.readUInt16LE(4) : head.readUInt16BE(4);
  if (major !== 2) throw new UnrecognisedFile(`The pcap file has an unsupported version ${major} (expected 2.4)`);
  return "pcap";
}

function sniffPcapng(head: Buffer): FileFormat | null {
  if (head.length < 4 || head.readUInt32BE(0) !== 0x0a0d0d0a) return null;
  if (head.length < 16) throw new UnrecognisedFile("The pcapng file is truncated: its section header is incomplete");
  const order = head.readUInt32LE(8);
  if (order !== 0x1a2b3c4d && order !== 0x4d3c2b1a) {
    throw new UnrecognisedFile("The pcapng file has an invalid byte-order magic in its section header");
  }
  const major = order === 0x1a2b3c4d ? head.readUInt16LE(12) : head.readUInt16BE(12);
  if (major !== 1) throw new UnrecognisedFile(`The pcapng file has an unsupported version ${major} (expected 1.0)`);
  return "pcapng";
}

/** ERF has no magic number: accept when the first records' headers are consistent (type, record length, timestamps). */
function sniffErf(head: Buffer, totalKnown: boolean): FileFormat | null {
  let offset = 0;
  let records = 0;
  while (offset + 16 <= head.length && records < 4) {
    const type = head[offset + 8] & 0x7f;
    const rlen = head.readUInt16BE(offset + 10);
    const seconds = head.readUInt32LE(offset + 4);
    if (type < 1 || type > 48 || rlen < 16 || seconds === 0) return null;
    records++;
    offset += rlen;
  }
  if (records === 0) return null;
  // One record is weak evidence unless it is the whole (short) file.
  return records >= 2 || (totalKnown && offset === head.length) ? "erf" : null;
}

function sniffUnified2(head: Buffer): FileFormat | null {
  if (head.length < 8) return null;
  const type = head.readUInt32BE(0);
  const length = head.readUInt32BE(4);
  if (!UNIFIED2_TYPES.has(type) || length < 8 || length > 1 << 20) return null;
  return "unified2";
}

function sniffText(head: Buffer): FileFormat | null {
  if (head.includes(0)) return null;
  const text = head.toString("utf8");
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== "");
  const first = lines[0]?.trim() ?? "";
  if (first.startsWith("{")) {
    const complete = text.includes("\n") ? first : "";
    try {
      const event = JSON.parse(complete) as Record<string, unknown>;
      if (typeof event === "object" && event && ("event_type" in event || "timestamp" in event)) return "eve-json";
    } catch {
      // A line cut by the sniff window: fall back to the shape of its start.
      if (/^\{\s*"(timestamp|event_type|flow_id)"/.test(first)) return "eve-json";
    }
    return null;
  }
  const meaningful = lines.filter((l) => !l.trim().startsWith("#"));
  if (/^\s*#?\s*(alert|drop|pass|reject|rejectsrc|rejectdst|rejectboth)\s+\S+\s+\S+\s+\S+\s+(->|<>)/m.test(text)) {
    return "rules";
  }
  if (meaningful.length > 0 && meaningful.every((l) => /^\s*config\s+classification\s*:/.test(l)))
    return "classification";
  return null;
}

function sniffPlain(head: Buffer, totalKnown: boolean): FileFormat | null {
  return sniffPcap(head) ?? sniffPcapng(head) ?? sniffUnified2(head) ?? sniffErf(head, totalKnown) ?? sniffText(head);
}

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
      reject(new UnrecognisedFile("The gzip file is damaged: its start cannot be decompressed"));
    });
    gunzip.end(head);
  });
}

/**
 * Sniffs the start of a file. `totalKnown` says the head is the whole file.
 * Rejects with UnrecognisedFile with a reason a user can act on.
 */
export async function sniffFormat(head: Buffer, totalKnown: boolean): Promise<Sniffed> {
  if (head.length === 0) throw new UnrecognisedFile("The file is empty");
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
    const inner = sniffPlain(await inflateStart(head), totalKnown);
    if (!inner) throw new UnrecognisedFile(`The gzip file does not contain a supported format (${SUPPORTED})`);
    return { format: inner, compression: "gzip" };
  }
  const format = sniffPlain(head, totalKnown);
  if (!format) throw new UnrecognisedFile(`Unrecognised file format: expected ${SUPPORTED}`);
  return { format, compression: null };
}

export const SUPPORTED =
  "a capture (pcap, pcapng or ERF), unified2 alerts, Suricata EVE JSON, a classification.config or a rules file, optionally gzip-compressed";

/** Checks found only once the whole file is known (the start alone cannot tell). */
export function checkComplete(format: FileFormat, head: Buffer, size: number): void {
  if (format === "unified2" && head.length >= 8 && size < 8 + head.readUInt32BE(4)) {
    throw new UnrecognisedFile("The unified2 file is truncated: its first record is incomplete");
  }
  if (format === "pcap" && size < 24) throw new UnrecognisedFile("The pcap file is truncated");
}

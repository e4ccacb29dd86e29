// One file-kind sniffer for the engine, the server and the web app: what a file is from its first bytes, and, for a
// kind whose header refuses it, why — in words for the file's user.
import { Unified2Type } from "../alerts/unified2-records.js";
import { looksLikeErf } from "./erf-shape.js";
import { textKind } from "./text-kind.js";

export type FileKind = "pcap" | "pcapng" | "erf" | "unified2" | "eve-json" | "classification" | "rules";

export const captureKinds: readonly FileKind[] = ["pcap", "pcapng", "erf"];

/** Bytes of a file's start worth passing: a few ERF records, a long first EVE line, a rules file's opening comments. */
export const FILE_KIND_HEAD_BYTES = 64 * 1024;

export interface SniffOptions {
  /** The bytes are the whole file, not a start that may be cut anywhere (default false). */
  complete?: boolean;
}

export interface FileKindResult {
  /** What the bytes are; "gzip" for compressed data (inflate its start, then sniffGzipContent); undefined: none. */
  kind: FileKind | "gzip" | undefined;
  /** Why the file cannot be taken (its kind's header refuses it, or no kind matches); undefined when it can. */
  problem?: string;
}

const SUPPORTED =
  "a capture (pcap, pcapng or ERF), unified2 alerts, Suricata EVE JSON, a classification.config or a rules file, optionally gzip-compressed";

export const fileKindMessages = {
  empty: "The file is empty",
  unrecognised: `Unrecognised file format: expected ${SUPPORTED}`,
  gzipWithout: `The gzip file does not contain a supported format (${SUPPORTED})`,
  gzipDamaged: "The gzip file is damaged: its start cannot be decompressed",
} as const;

const UNIFIED2_TYPES = new Set<number>(Object.values(Unified2Type));
/** A first unified2 record longer than this is not taken for one. */
const UNIFIED2_MAX_FIRST = 1 << 20;

/** Sniffs a file's start (FILE_KIND_HEAD_BYTES, or the whole file when shorter: then say `complete`). */
export function sniffFileKind(head: Uint8Array, options: SniffOptions = {}): FileKindResult {
  if (head.length === 0) return { kind: undefined, problem: fileKindMessages.empty };
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return { kind: "gzip" };
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const complete = options.complete ?? false;
  const found = pcap(head, view) ?? pcapng(head, view) ?? unified2(view);
  if (found) return found;
  if (looksLikeErf(head, complete)) return { kind: "erf" };
  const text = textKind(head, complete);
  return text ? { kind: text } : { kind: undefined, problem: fileKindMessages.unrecognised };
}

/** Sniffs the inflated start of a gzip file: its content must be a kind of its own, not more gzip. */
export function sniffGzipContent(inflated: Uint8Array, options: SniffOptions = {}): FileKindResult {
  const inner = sniffFileKind(inflated, options);
  if (inner.kind === undefined || inner.kind === "gzip")
    return { kind: undefined, problem: fileKindMessages.gzipWithout };
  return inner;
}

/** What only the file's size can tell (the start alone cannot): a first unified2 record cut short. */
export function sizeProblem(kind: FileKind, head: Uint8Array, size: number): string | undefined {
  if (kind !== "unified2" || head.length < 8) return undefined;
  const length = new DataView(head.buffer, head.byteOffset, 8).getUint32(4, false);
  return size < 8 + length ? "The unified2 file is truncated: its first record is incomplete" : undefined;
}

function pcap(head: Uint8Array, view: DataView): FileKindResult | undefined {
  if (head.length < 4) return undefined;
  const magic = view.getUint32(0, false);
  const bigEndian = magic === 0xa1b2c3d4 || magic === 0xa1b23c4d;
  if (!bigEndian && magic !== 0xd4c3b2a1 && magic !== 0x4d3cb2a1) return undefined;
  if (head.length < 24)
    return { kind: "pcap", problem: "The pcap file is truncated: its 24-byte header is incomplete" };
  const major = view.getUint16(4, !bigEndian);
  if (major !== 2) return { kind: "pcap", problem: `The pcap file has an unsupported version ${major} (expected 2.4)` };
  return { kind: "pcap" };
}

function pcapng(head: Uint8Array, view: DataView): FileKindResult | undefined {
  if (head.length < 4 || view.getUint32(0, false) !== 0x0a0d0d0a) return undefined;
  if (head.length < 16) {
    return { kind: "pcapng", problem: "The pcapng file is truncated: its section header is incomplete" };
  }
  const order = view.getUint32(8, true);
  if (order !== 0x1a2b3c4d && order !== 0x4d3c2b1a) {
    return { kind: "pcapng", problem: "The pcapng file has an invalid byte-order magic in its section header" };
  }
  const major = view.getUint16(12, order === 0x1a2b3c4d);
  if (major !== 1)
    return { kind: "pcapng", problem: `The pcapng file has an unsupported version ${major} (expected 1.0)` };
  return { kind: "pcapng" };
}

/** unified2 has no magic either: a known record type and a plausible length in the first record header. */
function unified2(view: DataView): FileKindResult | undefined {
  if (view.byteLength < 8) return undefined;
  const length = view.getUint32(4, false);
  if (!UNIFIED2_TYPES.has(view.getUint32(0, false)) || length < 8 || length > UNIFIED2_MAX_FIRST) return undefined;
  return { kind: "unified2" };
}

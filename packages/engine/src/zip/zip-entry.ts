// An entry's bytes read where the central directory puts them: its local header, then its data, inflated when
// deflated and checked against the directory's size and CRC-32 (yauzl leaves the CRC-32 to its user).
import type fs from "node:fs";
import { pipeline, Readable } from "node:stream";
import zlib from "node:zlib";
import { isTracemillError } from "@tracemill/core";
import { type FileRegion, readAt, regionChunks } from "./file-region.js";
import type { ZipEntryPlace } from "./zip-directory.js";
import { zipError } from "./zip-error.js";

type Handle = fs.promises.FileHandle;

const LOCAL_HEADER = 30;
const LOCAL_SIGNATURE = 0x04034b50;
const STORED = 0;
const DEFLATED = 8;

/** Where an entry's data lies: after its local header, whose name and extra field lengths say how long it is. */
async function entryRegion(handle: Handle, entry: ZipEntryPlace, label: string): Promise<FileRegion> {
  const header = await readAt(handle, entry.headerOffset, LOCAL_HEADER);
  if (header.length < LOCAL_HEADER || header.readUInt32LE(0) !== LOCAL_SIGNATURE) {
    throw zipError(label, `${entry.name} has no local header where the central directory puts it`);
  }
  const start = entry.headerOffset + LOCAL_HEADER + header.readUInt16LE(26) + header.readUInt16LE(28);
  return { start, length: entry.compressedSize };
}

/** A stored entry's bytes as a region of the zip, to be read from any row on; a compressed one cannot be. */
export async function storedRegion(handle: Handle, entry: ZipEntryPlace, label: string): Promise<FileRegion> {
  if (entry.method !== STORED) {
    throw zipError(label, `${entry.name} is compressed (method ${entry.method}); it is read in place only when stored`);
  }
  return entryRegion(handle, entry, label);
}

/**
 * An entry's bytes in chunks of up to 1 MiB, inflated when deflated, checked against the directory's size as they
 * come and its CRC-32 at the end: a damaged entry throws after its last chunk (or once it outgrows its size), so a
 * caller writing the chunks on must discard what it wrote.
 */
export async function* entryChunks(handle: Handle, entry: ZipEntryPlace, label: string): AsyncGenerator<Buffer> {
  if (entry.method !== STORED && entry.method !== DEFLATED) {
    throw zipError(label, `${entry.name} uses compression method ${entry.method}, which is not read here`);
  }
  const raw = wholeRegion(handle, await entryRegion(handle, entry, label), entry, label);
  let size = 0;
  let crc = 0;
  for await (const chunk of entry.method === STORED ? raw : inflated(raw, entry, label)) {
    size += chunk.length;
    if (size > entry.size) break;
    crc = zlib.crc32(chunk, crc);
    yield chunk;
  }
  if (size !== entry.size || crc !== entry.crc) {
    throw zipError(label, `${entry.name} is damaged: its bytes do not match the CRC-32 the zip records`);
  }
}

/** An entry's bytes whole (a PNG, a small file), checked as entryChunks checks them. */
export async function entryBytes(handle: Handle, entry: ZipEntryPlace, label: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of entryChunks(handle, entry, label)) chunks.push(chunk);
  return chunks.length === 1 ? chunks[0] : Buffer.concat(chunks);
}

/** An entry's stored bytes, all of them: a zip that ends inside them is refused. */
async function* wholeRegion(handle: Handle, region: FileRegion, entry: ZipEntryPlace, label: string) {
  let read = 0;
  for await (const chunk of regionChunks(handle, region)) {
    read += chunk.length;
    yield chunk;
  }
  if (read < region.length) throw zipError(label, `${entry.name} is cut off: the zip ends inside it`);
}

async function* inflated(raw: AsyncIterable<Buffer>, entry: ZipEntryPlace, label: string): AsyncGenerator<Buffer> {
  // The pipeline's callback is not where its errors go: they reach the loop below, which reads the inflater.
  const inflater = pipeline(Readable.from(raw), zlib.createInflateRaw(), () => {});
  try {
    for await (const chunk of inflater) yield chunk as Buffer;
  } catch (error) {
    if (isTracemillError(error)) throw error;
    throw zipError(label, `${entry.name} cannot be inflated (${(error as Error).message})`);
  }
}

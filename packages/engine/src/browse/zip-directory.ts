// A zip's central directory read once through yauzl (a well-kept reader: Zip64, and entry names that are absolute or
// climb out with ".." refused), then any entry's bytes read where they lie: its local header, then its data, checked
// against the directory's CRC-32. Nothing else of the zip is read.
import fs from "node:fs";
import zlib from "node:zlib";
import { TracemillError } from "@tracemill/core";
import type * as Yauzl from "yauzl";
import { type FileRegion, readAt } from "./row-index.js";

/** Where an entry lies in its zip, as the central directory says. */
export interface ZipEntryPlace {
  name: string;
  headerOffset: number;
  compressedSize: number;
  size: number;
  /** 0 stored, 8 deflated. */
  method: number;
  crc: number;
}

const LOCAL_HEADER = 30;
const LOCAL_SIGNATURE = 0x04034b50;

const broken = (label: string, reason: string) => new TracemillError("BAD_INPUT", `${label}: ${reason}`);

/** Reads of the central directory served from 1 MiB blocks: yauzl asks two small reads per entry. */
const BLOCK = 1024 * 1024;

/**
 * yauzl's reader of a file whose small reads are served from the last block read (a miss reads the next 1 MiB from
 * there): the central directory is read front to back, so a 100 000-entry zip costs a dozen reads, not 200 000.
 */
function blockReader(yauzl: typeof Yauzl, handle: fs.promises.FileHandle): Yauzl.RandomAccessReader {
  class BlockReader extends yauzl.RandomAccessReader {
    private block: Buffer = Buffer.alloc(0);
    private blockStart = 0;

    override read(buffer: Buffer, offset: number, length: number, position: number, callback: ReadCallback): void {
      const serve = () => {
        this.block.copy(buffer, offset, position - this.blockStart, position - this.blockStart + length);
        // Never synchronously: yauzl reads the next entry from within its callback.
        process.nextTick(callback, null, length);
      };
      if (position >= this.blockStart && position + length <= this.blockStart + this.block.length) {
        serve();
        return;
      }
      readAt(handle, position, Math.max(length, BLOCK)).then((bytes) => {
        this.block = bytes;
        this.blockStart = position;
        if (bytes.length >= length) serve();
        else callback(null, bytes.copy(buffer, offset));
      }, callback);
    }

    override _readStreamForRange(start: number, end: number) {
      return handle.createReadStream({ start, end: end - 1, autoClose: false });
    }
  }
  return new BlockReader();
}

type ReadCallback = (error: Error | null, bytesRead?: number) => void;

/** Calls `onEntry` for every entry of the central directory, in its order. `label` names the zip in messages. */
export async function readZipDirectory(
  file: string,
  label: string,
  onEntry: (entry: ZipEntryPlace) => void,
): Promise<void> {
  const { default: yauzl } = (await import("yauzl")) as unknown as { default: typeof Yauzl };
  const handle = await fs.promises.open(file, "r");
  try {
    const { size } = await handle.stat();
    const zip = await new Promise<Yauzl.ZipFile>((resolve, reject) =>
      yauzl.fromRandomAccessReader(
        blockReader(yauzl, handle),
        size,
        { lazyEntries: true, autoClose: false },
        (error, opened) => (error ? reject(broken(label, `not a readable zip (${error.message})`)) : resolve(opened)),
      ),
    );
    try {
      await new Promise<void>((resolve, reject) => {
        zip.on("entry", (entry: Yauzl.Entry) => {
          onEntry({
            name: entry.fileName,
            headerOffset: entry.relativeOffsetOfLocalHeader,
            compressedSize: entry.compressedSize,
            size: entry.uncompressedSize,
            method: entry.compressionMethod,
            crc: entry.crc32,
          });
          zip.readEntry();
        });
        zip.on("end", resolve);
        zip.on("error", (error: Error) => reject(broken(label, `not a readable zip (${error.message})`)));
        zip.readEntry();
      });
    } finally {
      zip.close();
    }
  } finally {
    await handle.close();
  }
}

/** Where an entry's data lies: after its local header, whose name and extra field lengths say how long it is. */
export async function entryRegion(handle: fs.promises.FileHandle, entry: ZipEntryPlace, label: string) {
  const header = await readAt(handle, entry.headerOffset, LOCAL_HEADER);
  if (header.length < LOCAL_HEADER || header.readUInt32LE(0) !== LOCAL_SIGNATURE) {
    throw broken(label, `${entry.name} has no local header where the central directory puts it`);
  }
  const start = entry.headerOffset + LOCAL_HEADER + header.readUInt16LE(26) + header.readUInt16LE(28);
  return { start, length: entry.compressedSize };
}

/** A stored entry's bytes as a region of the zip, to be read from any row on; a compressed one cannot be. */
export async function storedRegion(
  handle: fs.promises.FileHandle,
  entry: ZipEntryPlace,
  label: string,
): Promise<FileRegion> {
  if (entry.method !== 0) {
    throw broken(label, `${entry.name} is compressed (method ${entry.method}); it is read in place only when stored`);
  }
  return entryRegion(handle, entry, label);
}

/** An entry's bytes, inflated when deflated, checked against its CRC-32. */
export async function entryBytes(handle: fs.promises.FileHandle, entry: ZipEntryPlace, label: string): Promise<Buffer> {
  if (entry.method !== 0 && entry.method !== 8) {
    throw broken(label, `${entry.name} uses compression method ${entry.method}, which is not read here`);
  }
  const region = await entryRegion(handle, entry, label);
  const data = await readAt(handle, region.start, region.length);
  if (data.length < region.length) throw broken(label, `${entry.name} is cut off: the zip ends inside it`);
  let bytes: Buffer;
  try {
    bytes = entry.method === 0 ? data : zlib.inflateRawSync(data, { maxOutputLength: Math.max(1, entry.size) });
  } catch (error) {
    throw broken(label, `${entry.name} cannot be inflated (${(error as Error).message})`);
  }
  if (bytes.length !== entry.size || zlib.crc32(bytes) !== entry.crc) {
    throw broken(label, `${entry.name} is damaged: its bytes do not match the CRC-32 the zip records`);
  }
  return bytes;
}

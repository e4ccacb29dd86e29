// A zip's central directory read once through yauzl (a well-kept reader: Zip64, and entry names that are absolute or
// climb out with ".." refused). Only where each entry lies is kept; its bytes are read there (zip-entry.ts).
import fs from "node:fs";
import type * as Yauzl from "yauzl";
import { readAt } from "./file-region.js";
import { zipError } from "./zip-error.js";

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
        (error, opened) => (error ? reject(unreadable(label, error)) : resolve(opened)),
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
        zip.on("error", (error: Error) => reject(unreadable(label, error)));
        zip.readEntry();
      });
    } finally {
      zip.close();
    }
  } finally {
    await handle.close();
  }
}

/** The entries of the central directory, in its order. */
export async function listZip(file: string, label: string): Promise<ZipEntryPlace[]> {
  const entries: ZipEntryPlace[] = [];
  await readZipDirectory(file, label, (entry) => entries.push(entry));
  return entries;
}

const unreadable = (label: string, error: Error) => zipError(label, `not a readable zip (${error.message})`);

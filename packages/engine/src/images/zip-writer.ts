// A minimal streaming zip writer (APPNOTE 6.3: local headers, central directory, Zip64 when a count, size or offset
// needs it) for entries whose bytes and CRC-32 are known when added: written in order through one buffered file,
// renamed into place when complete. Entries are stored (method 0): the PNGs are deflated already.
import fs from "node:fs";
import zlib from "node:zlib";
import { TracemillError } from "@tracemill/core";
import { OutputFile } from "../extract/output-file.js";

/** A fixed entry time (2000-01-01 00:00, MS-DOS format) makes the same input give a byte-identical zip. */
const DOS_DATE = ((2000 - 1980) << 9) | (1 << 5) | 1;
const DOS_TIME = 0;
/** General-purpose flag bit 11: names are UTF-8. */
const UTF8_NAMES = 0x0800;
/** Made by: Unix (so the mode below applies), specification 4.5. */
const MADE_BY = (3 << 8) | 45;
/** External attributes: a regular file, rw-r--r--. */
const FILE_MODE = (0o100644 << 16) >>> 0;
const VERSION_PLAIN = 20;
const VERSION_ZIP64 = 45;
const MAX16 = 0xffff;
const MAX32 = 0xffffffff;
const COPY_CHUNK = 1 << 20;

interface EntryRecord {
  name: string;
  nameLength: number;
  crc: number;
  size: number;
  offset: number;
}

/** Room for a header or record with the longest name (a 16-bit length) and its Zip64 extra field. */
const SCRATCH_BYTES = 46 + MAX16 + 4 + 3 * 8;

export class ZipWriter {
  private readonly out: OutputFile;
  private readonly entries: EntryRecord[] = [];
  /** Headers and records are written through one buffer (tens of thousands of entries: no buffer per entry). */
  private readonly scratch = Buffer.alloc(SCRATCH_BYTES);

  constructor(path: string) {
    this.out = new OutputFile(path);
  }

  /** Adds an entry made of `parts`, in order; `crc` is their CRC-32 (the caller has it from making them). */
  addParts(name: string, parts: readonly Uint8Array[], crc: number): void {
    let size = 0;
    for (const part of parts) size += part.length;
    this.writeLocalHeader(name, crc, size);
    for (const part of parts) this.out.write(part);
  }

  /**
   * Adds a file from disk, read twice in 1 MiB chunks (its CRC-32 first, so the local header is complete and needs
   * no data descriptor; the second read comes from the page cache).
   */
  addFile(realPath: string, name: string): void {
    const fd = fs.openSync(realPath, "r");
    try {
      const size = fs.fstatSync(fd).size;
      const chunk = Buffer.allocUnsafe(Math.min(COPY_CHUNK, Math.max(size, 1)));
      let crc = 0;
      for (let at = 0; at < size; ) {
        const read = readChunk(fd, chunk, at, size, realPath);
        crc = zlib.crc32(chunk.subarray(0, read), crc);
        at += read;
      }
      this.writeLocalHeader(name, crc, size);
      for (let at = 0; at < size; ) {
        const read = readChunk(fd, chunk, at, size, realPath);
        this.out.write(chunk, 0, read);
        at += read;
      }
    } finally {
      fs.closeSync(fd);
    }
  }

  /** Writes the central directory and the end records, and gives the file its final name. */
  async finish(): Promise<void> {
    const start = this.out.bytes;
    for (const entry of this.entries) this.writeCentralRecord(entry);
    const size = this.out.bytes - start;
    const count = this.entries.length;
    if (count >= MAX16 || start >= MAX32 || size >= MAX32) {
      const recordAt = this.out.bytes;
      const record = Buffer.alloc(56);
      record.writeUInt32LE(0x06064b50, 0);
      record.writeBigUInt64LE(44n, 4); // size of the rest of this record
      record.writeUInt16LE(MADE_BY, 12);
      record.writeUInt16LE(VERSION_ZIP64, 14);
      record.writeBigUInt64LE(BigInt(count), 24);
      record.writeBigUInt64LE(BigInt(count), 32);
      record.writeBigUInt64LE(BigInt(size), 40);
      record.writeBigUInt64LE(BigInt(start), 48);
      const locator = Buffer.alloc(20);
      locator.writeUInt32LE(0x07064b50, 0);
      locator.writeBigUInt64LE(BigInt(recordAt), 8);
      locator.writeUInt32LE(1, 16); // total number of disks
      this.out.write(record);
      this.out.write(locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, MAX16), 8);
    end.writeUInt16LE(Math.min(count, MAX16), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    this.out.write(end);
    await this.out.commit();
  }

  /** Closes and removes the temporary file (after an error or a cancel). */
  async discard(): Promise<void> {
    await this.out.discard();
  }

  private writeLocalHeader(name: string, crc: number, size: number): void {
    const nameLength = Buffer.byteLength(name, "utf8");
    if (nameLength > MAX16) throw new RangeError(`zip entry name over 65,535 bytes: ${name.slice(0, 40)}…`);
    this.entries.push({ name, nameLength, crc, size, offset: this.out.bytes });
    // Stored: compressed size = size. Zip64 in the local header only for a size that needs it.
    const zip64 = size >= MAX32;
    const header = this.scratch;
    const length = 30 + nameLength + (zip64 ? 20 : 0);
    header.fill(0, 0, 30);
    header.writeUInt32LE(0x04034b50, 0);
    header.writeUInt16LE(zip64 ? VERSION_ZIP64 : VERSION_PLAIN, 4);
    header.writeUInt16LE(UTF8_NAMES, 6);
    // method 0 (stored) at 8 stays 0
    header.writeUInt16LE(DOS_TIME, 10);
    header.writeUInt16LE(DOS_DATE, 12);
    header.writeUInt32LE(crc, 14);
    header.writeUInt32LE(zip64 ? MAX32 : size, 18);
    header.writeUInt32LE(zip64 ? MAX32 : size, 22);
    header.writeUInt16LE(nameLength, 26);
    header.writeUInt16LE(zip64 ? 20 : 0, 28);
    header.write(name, 30, nameLength, "utf8");
    if (zip64) {
      const extra = 30 + nameLength;
      header.writeUInt16LE(0x0001, extra);
      header.writeUInt16LE(16, extra + 2);
      header.writeBigUInt64LE(BigInt(size), extra + 4);
      header.writeBigUInt64LE(BigInt(size), extra + 12);
    }
    this.out.write(header, 0, length);
  }

  private writeCentralRecord(entry: EntryRecord): void {
    // The Zip64 extra field holds, in this order, only the values that do not fit their 32-bit fields.
    const sizeLarge = entry.size >= MAX32;
    const offsetLarge = entry.offset >= MAX32;
    const large = (sizeLarge ? 2 : 0) + (offsetLarge ? 1 : 0);
    const extraLength = large > 0 ? 4 + 8 * large : 0;
    const record = this.scratch;
    const length = 46 + entry.nameLength + extraLength;
    record.fill(0, 0, 46);
    record.writeUInt32LE(0x02014b50, 0);
    record.writeUInt16LE(MADE_BY, 4);
    record.writeUInt16LE(large > 0 ? VERSION_ZIP64 : VERSION_PLAIN, 6);
    record.writeUInt16LE(UTF8_NAMES, 8);
    record.writeUInt16LE(DOS_TIME, 12);
    record.writeUInt16LE(DOS_DATE, 14);
    record.writeUInt32LE(entry.crc, 16);
    record.writeUInt32LE(sizeLarge ? MAX32 : entry.size, 20);
    record.writeUInt32LE(sizeLarge ? MAX32 : entry.size, 24);
    record.writeUInt16LE(entry.nameLength, 28);
    record.writeUInt16LE(extraLength, 30);
    record.writeUInt32LE(FILE_MODE, 38);
    record.writeUInt32LE(offsetLarge ? MAX32 : entry.offset, 42);
    record.write(entry.name, 46, entry.nameLength, "utf8");
    if (extraLength > 0) {
      let at = 46 + entry.nameLength;
      record.writeUInt16LE(0x0001, at);
      record.writeUInt16LE(8 * large, at + 2);
      at += 4;
      if (sizeLarge) {
        record.writeBigUInt64LE(BigInt(entry.size), at);
        record.writeBigUInt64LE(BigInt(entry.size), at + 8);
        at += 16;
      }
      if (offsetLarge) record.writeBigUInt64LE(BigInt(entry.offset), at);
    }
    this.out.write(record, 0, length);
  }
}

function readChunk(fd: number, chunk: Buffer, at: number, size: number, file: string): number {
  const read = fs.readSync(fd, chunk, 0, Math.min(chunk.length, size - at), at);
  if (read === 0)
    throw new TracemillError("DAMAGED_INPUT", `${file}: file shrank while being zipped`, { file, offset: at });
  return read;
}

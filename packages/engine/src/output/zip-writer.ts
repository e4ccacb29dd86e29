// A minimal zip writer (APPNOTE 6.3: local headers, central directory, Zip64 when a count, size or offset needs it)
// whose first entry is written in place by someone else: the zip file starts as that entry's bytes after a reserve
// for its local header; the other entries go to a scratch tail file meanwhile, appended after it at the end. Entries
// are stored (method 0): the PNGs are deflated already. The zip is renamed into place only when complete.
import fs from "node:fs";
import { OutputFile } from "./output-file.js";

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
/** A local header's Zip64 extra field: id, length, size, compressed size. */
const LOCAL_ZIP64_BYTES = 4 + 16;

interface EntryRecord {
  name: string;
  nameLength: number;
  crc: number;
  size: number;
  offset: number;
  /** Its local header has the Zip64 extra field (so it needs version 4.5). */
  zip64Local: boolean;
}

/** An entry copied from a scratch file after the tail, with its CRC-32 and size known from writing it. */
interface FileEntry {
  source: string;
  name: string;
  crc: number;
  size: number;
}

/** Room for a header or record with the longest name (a 16-bit length) and its Zip64 extra field. */
const SCRATCH_BYTES = 46 + MAX16 + 4 + 3 * 8;

export class ZipWriter {
  /** The zip file: the first entry's bytes after the reserve for its local header. */
  readonly lead: OutputFile;
  private readonly leadName: string;
  private readonly leadNameLength: number;
  /** The other entries, at offsets relative to the tail until the tail is appended; made with the first one. */
  private tail: OutputFile | null = null;
  private readonly entries: EntryRecord[] = [];
  private readonly files: FileEntry[] = [];
  /** Headers and records are written through one buffer (tens of thousands of entries: no buffer per entry). */
  private readonly scratch = Buffer.alloc(SCRATCH_BYTES);

  /**
   * The zip will be `path`, its first entry `leadName`, whose bytes the caller writes into `lead`; `tailPath` is a
   * scratch file for the entries added here.
   */
  constructor(
    path: string,
    leadName: string,
    private readonly tailPath: string,
  ) {
    this.leadName = leadName;
    this.leadNameLength = checkedNameLength(leadName);
    // The lead's local header always has the Zip64 extra field: its size is not known when the reserve is made.
    this.lead = new OutputFile(path, { reserve: 30 + this.leadNameLength + LOCAL_ZIP64_BYTES, crc: true });
  }

  /** Adds an entry made of `parts`, in order; `crc` is their CRC-32 (the caller has it from making them). */
  addParts(name: string, parts: readonly Uint8Array[], crc: number): void {
    let size = 0;
    for (const part of parts) size += part.length;
    const nameLength = checkedNameLength(name);
    const zip64 = size >= MAX32;
    this.tail ??= new OutputFile(this.tailPath);
    this.entries.push({ name, nameLength, crc, size, offset: this.tail.bytes, zip64Local: zip64 });
    const length = this.localHeader(name, nameLength, crc, size, zip64);
    this.tail.write(this.scratch, 0, length);
    for (const part of parts) this.tail.write(part);
  }

  /**
   * Adds the scratch file at `source`, moved in at the end (and removed) after the tail and the files added before;
   * `crc` and `size` are known from writing it.
   */
  addFile(source: string, name: string, crc: number, size: number): void {
    checkedNameLength(name);
    this.files.push({ source, name, crc, size });
  }

  /**
   * Completes the lead's local header, appends the tail, the files and the central directory, and gives the zip its
   * final name.
   */
  async finish(): Promise<void> {
    const out = this.lead;
    const leadCrc = out.takeCrc();
    const headerLength = 30 + this.leadNameLength + LOCAL_ZIP64_BYTES;
    const leadSize = out.bytes - headerLength;
    this.localHeader(this.leadName, this.leadNameLength, leadCrc, leadSize, true);
    out.writeAt(this.scratch.subarray(0, headerLength), 0);
    const lead = {
      name: this.leadName,
      nameLength: this.leadNameLength,
      crc: leadCrc,
      size: leadSize,
      offset: 0,
      zip64Local: true,
    };
    if (this.tail) {
      // The tail's entries move by the length of the lead's part.
      await this.tail.commit();
      const shift = out.bytes;
      const tailBytes = out.moveFileIn(this.tailPath);
      if (tailBytes !== this.tail.bytes) throw new RangeError(`zip tail: ${tailBytes} bytes of ${this.tail.bytes}`);
      for (const entry of this.entries) entry.offset += shift;
    }
    this.entries.unshift(lead);
    for (const { source, name, crc, size } of this.files) {
      const nameLength = Buffer.byteLength(name, "utf8");
      const zip64 = size >= MAX32;
      this.entries.push({ name, nameLength, crc, size, offset: out.bytes, zip64Local: zip64 });
      out.write(this.scratch, 0, this.localHeader(name, nameLength, crc, size, zip64));
      const copied = out.moveFileIn(source);
      if (copied !== size) throw new RangeError(`${source}: ${copied} bytes, ${size} expected`);
    }
    this.writeCentralDirectory();
    await out.commit();
  }

  /** Closes and removes the zip's and the tail's temporary files (after an error or a cancel). */
  async discard(): Promise<void> {
    await Promise.all([this.lead.discard(), this.tail?.discard()]);
    await fs.promises.rm(this.tailPath, { force: true });
  }

  /** The central directory and the end records. */
  private writeCentralDirectory(): void {
    const out = this.lead;
    const start = out.bytes;
    for (const entry of this.entries) this.writeCentralRecord(entry);
    const size = out.bytes - start;
    const count = this.entries.length;
    if (count >= MAX16 || start >= MAX32 || size >= MAX32) {
      const recordAt = out.bytes;
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
      out.write(record);
      out.write(locator);
    }
    const end = Buffer.alloc(22);
    end.writeUInt32LE(0x06054b50, 0);
    end.writeUInt16LE(Math.min(count, MAX16), 8);
    end.writeUInt16LE(Math.min(count, MAX16), 10);
    end.writeUInt32LE(Math.min(size, MAX32), 12);
    end.writeUInt32LE(Math.min(start, MAX32), 16);
    out.write(end);
  }

  /**
   * A local header in `scratch`; returns its length. Stored: compressed size = size. With `zip64` the sizes are in
   * the Zip64 extra field (both, as a local header requires) and their 32-bit fields say 0xFFFFFFFF.
   */
  private localHeader(name: string, nameLength: number, crc: number, size: number, zip64: boolean): number {
    const header = this.scratch;
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
    header.writeUInt16LE(zip64 ? LOCAL_ZIP64_BYTES : 0, 28);
    header.write(name, 30, nameLength, "utf8");
    if (!zip64) return 30 + nameLength;
    const extra = 30 + nameLength;
    header.writeUInt16LE(0x0001, extra);
    header.writeUInt16LE(16, extra + 2);
    header.writeBigUInt64LE(BigInt(size), extra + 4);
    header.writeBigUInt64LE(BigInt(size), extra + 12);
    return extra + LOCAL_ZIP64_BYTES;
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
    record.writeUInt16LE(large > 0 || entry.zip64Local ? VERSION_ZIP64 : VERSION_PLAIN, 6);
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
    this.lead.write(record, 0, length);
  }
}

function checkedNameLength(name: string): number {
  const nameLength = Buffer.byteLength(name, "utf8");
  if (nameLength > MAX16) throw new RangeError(`zip entry name over 65,535 bytes: ${name.slice(0, 40)}…`);
  return nameLength;
}

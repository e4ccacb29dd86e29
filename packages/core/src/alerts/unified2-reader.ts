// Streaming unified2 reader: bytes in (any chunking), records out; unknown record types are skipped with a warning,
// anything else that cannot be right stops it with DAMAGED_INPUT naming the byte offset (docs/formats.md, "unified2").
import { TracemillError } from "../errors.js";
import {
  type Unified2Event,
  type Unified2EventType,
  type Unified2Record,
  unified2EventLength,
  unified2ExtraDataHeaderLength,
  unified2PacketHeaderLength,
} from "./unified2-records.js";

/** A record the reader skipped, reported instead of failing the whole file. */
export interface Unified2Warning {
  offset: number;
  recordType: number;
  message: string;
}

export interface Unified2ReaderOptions {
  /** Named in error messages. */
  file?: string;
  onWarning?: (warning: Unified2Warning) => void;
}

/** A record as read, with the byte offset of its header in the file. */
export type Unified2RecordAt = Unified2Record & { offset: number };

/** No real record comes near this; a larger length means the file is not unified2 (or is damaged). */
const maxRecordLength = 64 * 1024 * 1024;
/** Snort's types are small numbers; a type beyond this is text or a damaged header, not a record to skip. */
const maxRecordType = 0xffff;

/**
 * Push-style reader: `push` each chunk, then `finish`. Records' byte fields are views into the pushed chunks
 * (the reader never reuses memory), so they stay valid as long as the caller keeps the chunks unchanged.
 */
export class Unified2Reader {
  /** Bytes of an incomplete record, in the chunks they came in (joined once the record is whole). */
  private held: Uint8Array[] = [];
  private heldLength = 0;
  /** Bytes the incomplete record needs (header included), once its header is known; else 8. */
  private needed = 8;
  /** File offset of the first held byte. */
  private base = 0;

  constructor(private readonly options: Unified2ReaderOptions = {}) {}

  /** Parses every complete record now available. */
  push(chunk: Uint8Array, onRecord: (record: Unified2RecordAt) => void): void {
    if (chunk.length === 0) return;
    // A long record arriving in many chunks is joined once, not once per chunk.
    if (this.heldLength + chunk.length < this.needed) {
      this.held.push(chunk);
      this.heldLength += chunk.length;
      return;
    }
    const bytes = this.heldLength > 0 ? joined([...this.held, chunk], this.heldLength + chunk.length) : chunk;
    const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    let at = 0;
    this.needed = 8;
    while (bytes.length - at >= 8) {
      const type = view.getUint32(at);
      const length = view.getUint32(at + 4);
      const offset = this.base + at;
      if (type > maxRecordType || length > maxRecordLength) {
        throw this.error(
          `record at byte ${offset} has type ${type} and announces ${length} bytes: not a unified2 file, or damaged`,
          offset,
        );
      }
      if (bytes.length - at - 8 < length) {
        this.needed = 8 + length;
        break;
      }
      const record = this.decode(type, bytes.subarray(at + 8, at + 8 + length), offset);
      if (record) onRecord(record);
      at += 8 + length;
    }
    const rest = bytes.subarray(at);
    this.held = rest.length > 0 ? [rest] : [];
    this.heldLength = rest.length;
    this.base += at;
  }

  /** Ends the input: leftover bytes mean the last record was cut short. */
  finish(): void {
    if (this.heldLength === 0) return;
    const offset = this.base;
    const pending = this.held.length === 1 ? this.held[0] : joined(this.held, this.heldLength);
    if (pending.length < 8) {
      throw this.error(
        `truncated unified2 record header at byte ${offset}: ${pending.length} of 8 bytes present`,
        offset,
      );
    }
    const view = new DataView(pending.buffer, pending.byteOffset, 8);
    const type = view.getUint32(0);
    const length = view.getUint32(4);
    throw this.error(
      `truncated unified2 record (type ${type}) at byte ${offset}: it announces ${length} bytes, ${pending.length - 8} present`,
      offset,
    );
  }

  private decode(type: number, body: Uint8Array, offset: number): Unified2RecordAt | undefined {
    const view = new DataView(body.buffer, body.byteOffset, body.byteLength);
    switch (type) {
      case 7:
      case 72:
      case 104:
      case 105:
        return this.decodeEvent(type, view, body, offset);
      case 2: {
        this.requireLength(type, body, unified2PacketHeaderLength, offset, ">=");
        const packetLength = view.getUint32(24);
        if (packetLength > body.length - unified2PacketHeaderLength) {
          throw this.error(
            `unified2 packet record at byte ${offset} announces ${packetLength} packet bytes, ${body.length - unified2PacketHeaderLength} present`,
            offset,
          );
        }
        return {
          kind: "packet",
          offset,
          sensorId: view.getUint32(0),
          eventId: view.getUint32(4),
          eventSecond: view.getUint32(8),
          packetSecond: view.getUint32(12),
          packetMicrosecond: view.getUint32(16),
          linkType: view.getUint32(20),
          data: body.subarray(unified2PacketHeaderLength, unified2PacketHeaderLength + packetLength),
        };
      }
      case 110: {
        this.requireLength(type, body, unified2ExtraDataHeaderLength, offset, ">=");
        // blob_length counts its own 8-byte header (data_type + blob_length) plus the data.
        const blobLength = view.getUint32(28);
        const dataLength = blobLength - 8;
        if (blobLength < 8 || dataLength > body.length - unified2ExtraDataHeaderLength) {
          throw this.error(
            `unified2 extra-data record at byte ${offset} announces a blob of ${blobLength} bytes (8 + data), ${body.length - unified2ExtraDataHeaderLength} data bytes present`,
            offset,
          );
        }
        return {
          kind: "extra-data",
          offset,
          sensorId: view.getUint32(8),
          eventId: view.getUint32(12),
          eventSecond: view.getUint32(16),
          extraType: view.getUint32(20),
          dataType: view.getUint32(24),
          data: body.subarray(unified2ExtraDataHeaderLength, unified2ExtraDataHeaderLength + dataLength),
        };
      }
      default:
        this.options.onWarning?.({
          offset,
          recordType: type,
          message: `skipped unified2 record of unknown type ${type} (${body.length} bytes) at byte ${offset}`,
        });
        return undefined;
    }
  }

  private decodeEvent(
    type: Unified2EventType,
    view: DataView,
    body: Uint8Array,
    offset: number,
  ): Unified2Event & { offset: number } {
    this.requireLength(type, body, unified2EventLength[type], offset, "=");
    const microsecond = view.getUint32(12);
    if (microsecond > 999_999) {
      throw this.error(`unified2 event at byte ${offset} has ${microsecond} microseconds past its second`, offset);
    }
    const addressLength = type === 72 || type === 105 ? 16 : 4;
    const at = 36 + 2 * addressLength;
    const v2 = type === 104 || type === 105;
    return {
      kind: "event",
      offset,
      type,
      sensorId: view.getUint32(0),
      eventId: view.getUint32(4),
      eventSecond: view.getUint32(8),
      eventMicrosecond: microsecond,
      signatureId: view.getUint32(16),
      generatorId: view.getUint32(20),
      signatureRevision: view.getUint32(24),
      classificationId: view.getUint32(28),
      priority: view.getUint32(32),
      src: body.subarray(36, 36 + addressLength),
      dst: body.subarray(36 + addressLength, at),
      srcPort: view.getUint16(at),
      dstPort: view.getUint16(at + 2),
      protocol: body[at + 4],
      impactFlag: body[at + 5],
      impact: body[at + 6],
      blocked: body[at + 7],
      mplsLabel: v2 ? view.getUint32(at + 8) : 0,
      vlanId: v2 ? view.getUint16(at + 12) : 0,
    };
  }

  private requireLength(type: number, body: Uint8Array, expected: number, offset: number, how: "=" | ">="): void {
    if (how === "=" ? body.length === expected : body.length >= expected) return;
    throw this.error(
      `unified2 record type ${type} at byte ${offset} has ${body.length} bytes, expected ${how === "=" ? "" : "at least "}${expected}`,
      offset,
    );
  }

  private error(message: string, offset: number): TracemillError {
    const file = this.options.file;
    return new TracemillError("DAMAGED_INPUT", file ? `${file}: ${message}` : message, { file, offset });
  }
}

function joined(parts: Uint8Array[], length: number): Uint8Array {
  const bytes = new Uint8Array(length);
  let at = 0;
  for (const part of parts) {
    bytes.set(part, at);
    at += part.length;
  }
  return bytes;
}

/** Reads a whole unified2 file held in memory. */
export function readUnified2(bytes: Uint8Array, options: Unified2ReaderOptions = {}): Unified2RecordAt[] {
  const records: Unified2RecordAt[] = [];
  const reader = new Unified2Reader(options);
  reader.push(bytes, (record) => records.push(record));
  reader.finish();
  return records;
}

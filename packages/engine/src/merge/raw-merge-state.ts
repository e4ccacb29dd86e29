// The state of the raw background merge (see raw-background-merge.ts): a synchronous machine over one chunk at a
// time that copies background records as byte runs and writes attack and late packets between them.
import { type CapturedPacket, LENIENT_SNAPLEN, MAX_PACKET_BYTES } from "@tracemill/core/capture";
import { TracemillError } from "@tracemill/core/errors";
import type { CaptureFileWriter } from "../output/index.js";
import type { ProvenanceWriter } from "../provenance/index.js";
import { CutRecord } from "./cut-record.js";
import { type MergeSource, pull } from "./merge-source.js";
import type { CaptureScan } from "./scan.js";
import { shifted, type Timestamp } from "./timestamp.js";

const FILE_HEADER = 24;
const RECORD_HEADER = 16;
const NS = 1_000_000_000;
/** How many background records go by between looks at the writer's back-pressure. */
const CHECK_EVERY = 4096;

export interface RawMergeContext {
  out: CaptureFileWriter;
  record: ProvenanceWriter;
  /** Called for each attack packet before it is written (interface offset, address remapping). */
  prepareAttack: (packet: CapturedPacket) => void;
  /** Called every 65,536 output packets with the count so far. */
  onProgress: (written: number) => void;
  signal?: AbortSignal;
}

export const CHUNK_DONE = 0;
export const ATTACK_NEEDED = 1;
export const CHECK = 2;

/**
 * The merge state, in an object so the hot loop is synchronous and its numbers live in fields (an async
 * function's locals would be boxed on every update); step() returns when it needs the caller to await.
 */
export class RawMerge {
  private readonly nsPerUnit: number;
  private readonly maxCaptured: number;
  private b: CapturedPacket | null = null;
  private needAttack = false;
  private nextLate = 0;
  private nextSkip = 0;
  private index = 0;
  /** Packets written so far. */
  written = 0;
  private mustDrain = false;
  private headerLeft = FILE_HEADER;
  private chunk: Uint8Array = new Uint8Array(0);
  private view: DataView<ArrayBufferLike> = new DataView(new ArrayBuffer(0));
  private p = 0;
  private runStart = 0;
  private runEnd = 0;
  private runCount = 0;
  private tSec = 0;
  private tNsec = 0;
  /** A record cut by the end of the previous chunk. */
  private readonly carry = new CutRecord();

  constructor(
    private readonly scan: CaptureScan,
    private readonly attacks: MergeSource,
    private readonly shift: Timestamp,
    private readonly context: RawMergeContext,
  ) {
    const iface = scan.info.interfaces[0];
    this.nsPerUnit = 1e9 / iface.unitsPerSecond;
    this.maxCaptured = Math.min(MAX_PACKET_BYTES, Math.max(iface.snaplen, LENIENT_SNAPLEN));
  }

  async pullAttack(): Promise<void> {
    this.b = shifted(await pull(this.attacks), this.shift);
    this.needAttack = false;
  }

  startChunk(chunk: Uint8Array): void {
    this.chunk = chunk;
    this.view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const skip = Math.min(this.headerLeft, chunk.length);
    this.headerLeft -= skip;
    this.p = skip;
    this.runCount = 0;
  }

  /** Emits records of the chunk until it is used up or an await is needed. */
  step(): number {
    if (this.carry.length > 0 && !this.completeCarry()) return this.needAttack ? ATTACK_NEEDED : CHUNK_DONE;
    const view = this.view;
    const end = this.chunk.length;
    const nsPerUnit = this.nsPerUnit;
    const maxCaptured = this.maxCaptured;
    for (;;) {
      // A stretch of records that go out as they are: before the next attack or late packet, up to the next
      // record the first pass set aside and the next look at back-pressure. Only their lengths and seconds are
      // read; the bookkeeping is done once for the whole stretch.
      const skipAt = this.scan.lateIndices[this.nextSkip] ?? Number.POSITIVE_INFINITY;
      const stopAt = Math.min(skipAt, (this.index | (CHECK_EVERY - 1)) + 1);
      this.setThreshold();
      const tSec = this.tSec;
      const tNsec = this.tNsec;
      const from = this.p;
      const fromIndex = this.index;
      let p = from;
      let index = fromIndex;
      while (index < stopAt && end - p >= RECORD_HEADER) {
        const capturedLength = view.getUint32(p + 8, true);
        const nsec = view.getUint32(p + 4, true) * nsPerUnit;
        if (nsec >= NS || capturedLength > maxCaptured) throw this.changed();
        const next = p + RECORD_HEADER + capturedLength;
        const sec = view.getUint32(p, true);
        if (next > end || sec > tSec || (sec === tSec && nsec >= tNsec)) break;
        p = next;
        index++;
      }
      if (index > fromIndex) this.copied(from, p, fromIndex, index - fromIndex);
      if (index === stopAt && index !== skipAt) return CHECK;
      // The record at p, if whole in this chunk, is set aside (written later, in order) or comes after an
      // attack or late packet.
      if (end - p < RECORD_HEADER) return CHUNK_DONE;
      const capturedLength = view.getUint32(p + 8, true);
      const nsec = view.getUint32(p + 4, true) * nsPerUnit;
      if (nsec >= NS || capturedLength > maxCaptured) throw this.changed();
      const next = p + RECORD_HEADER + capturedLength;
      if (next > end) return CHUNK_DONE;
      if (index === skipAt) {
        this.nextSkip++;
        this.index = index + 1;
        this.p = next;
      } else {
        if (!this.emitBefore(view.getUint32(p, true), nsec, index)) return ATTACK_NEEDED;
        this.copied(p, next, index, 1);
      }
    }
  }

  /**
   * Sets (tSec, tNsec): background records earlier than it need nothing written before them. That is up to
   * the next attack packet inclusive (on equal timestamps the background goes first) and before the next late one.
   */
  private setThreshold(): void {
    let sec = Number.POSITIVE_INFINITY;
    let nsec = 0;
    const b = this.b;
    if (b !== null) {
      sec = b.tsSec;
      nsec = b.tsNsec + 1;
    }
    const held = this.scan.late[this.nextLate];
    if (held !== undefined && (held.tsSec < sec || (held.tsSec === sec && held.tsNsec < nsec))) {
      sec = held.tsSec;
      nsec = held.tsNsec;
    }
    this.tSec = sec;
    this.tNsec = nsec;
  }

  /** Background records [fromIndex, fromIndex + count) at chunk bytes [start, end) go out as they are. */
  private copied(start: number, end: number, fromIndex: number, count: number): void {
    if (this.runCount === 0 || this.runEnd !== start) {
      this.flush();
      this.runStart = start;
    }
    this.runEnd = end;
    this.runCount += count;
    this.context.record.addRun(0, fromIndex, count);
    this.counted(count);
    this.index = fromIndex + count;
    this.p = end;
  }

  /** True when the writer asked for a drain (the run so far is written first). */
  takeDrain(): boolean {
    this.flush();
    const drain = this.mustDrain;
    this.mustDrain = false;
    return drain;
  }

  /** Writes the run and keeps the chunk's cut tail, before the next read reuses the chunk's buffer. */
  endChunk(): void {
    this.flush();
    const rest = this.chunk.length - this.p;
    if (rest > 0) this.carry.append(this.chunk.subarray(this.p));
    this.p = this.chunk.length;
  }

  checkComplete(offset: number): void {
    if (this.carry.length > 0 || this.index !== this.scan.packets) throw this.changed(offset);
  }

  /**
   * Writes what goes before the background record at (sec, nsec, index): earlier late packets and attack
   * packets. False when an attack packet must be awaited first (call pullAttack, then again).
   */
  emitBefore(sec: number, nsec: number, at: number): boolean {
    const { out, record } = this.context;
    for (;;) {
      if (this.needAttack) return false;
      const held = this.scan.late[this.nextLate];
      const heldFirst =
        held !== undefined &&
        (held.tsSec < sec || (held.tsSec === sec && (held.tsNsec < nsec || (held.tsNsec === nsec && held.index < at))));
      const xSec = heldFirst ? held.tsSec : sec;
      const xNsec = heldFirst ? held.tsNsec : nsec;
      const b = this.b;
      if (b !== null && (b.tsSec < xSec || (b.tsSec === xSec && b.tsNsec < xNsec))) {
        this.flush();
        this.context.prepareAttack(b);
        if (!out.write(b)) this.mustDrain = true;
        record.add(1, b.index);
        this.counted();
        this.b = shifted(this.attacks.next(), this.shift);
        if (this.b === null) this.needAttack = true;
      } else if (heldFirst) {
        this.flush();
        if (!out.write(held)) this.mustDrain = true;
        record.add(0, held.index);
        this.counted();
        this.nextLate++;
      } else return true;
    }
  }

  /** Finishes a record cut by the previous chunk from the head of this one; false until it is complete. */
  private completeCarry(): boolean {
    const chunk = this.chunk;
    if (this.carry.length < RECORD_HEADER) {
      const take = Math.min(RECORD_HEADER - this.carry.length, chunk.length - this.p);
      this.carry.append(chunk.subarray(this.p, this.p + take));
      this.p += take;
      if (this.carry.length < RECORD_HEADER) return false;
    }
    const view = new DataView(this.carry.bytes.buffer);
    const capturedLength = view.getUint32(8, true);
    const fraction = view.getUint32(4, true);
    if (fraction * this.nsPerUnit >= NS || capturedLength > this.maxCaptured) throw this.changed();
    const total = RECORD_HEADER + capturedLength;
    const take = Math.min(total - this.carry.length, chunk.length - this.p);
    this.carry.append(chunk.subarray(this.p, this.p + take));
    this.p += take;
    if (this.carry.length < total) return false;
    const index = this.index;
    if (index === this.scan.lateIndices[this.nextSkip]) this.nextSkip++;
    else {
      if (!this.emitBefore(view.getUint32(0, true), fraction * this.nsPerUnit, index)) {
        // Not written yet: the record stays in the carry, its bytes taken from the chunk are handed back.
        this.p -= take;
        this.carry.length -= take;
        return false;
      }
      if (!this.context.out.writeRecords(this.carry.bytes, 0, total, 1)) this.mustDrain = true;
      this.context.record.add(0, index);
      this.counted();
    }
    this.index = index + 1;
    this.carry.length = 0;
    return true;
  }

  private flush(): void {
    if (this.runCount === 0) return;
    if (!this.context.out.writeRecords(this.chunk, this.runStart, this.runEnd, this.runCount)) this.mustDrain = true;
    this.runCount = 0;
  }

  private counted(count = 1): void {
    const before = this.written;
    this.written += count;
    if (before >>> 16 !== this.written >>> 16) this.context.onProgress(this.written);
  }

  private changed(offset?: number): TracemillError {
    const name = this.scan.name;
    return new TracemillError("DAMAGED_INPUT", `${name}: the file changed since it was first read`, {
      file: name,
      ...(offset === undefined ? {} : { offset }),
    });
  }
}

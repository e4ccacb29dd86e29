// pcap → pcap without re-encoding: the background's packets go out as their own record bytes, and consecutive
// records of one read chunk as a single copy, instead of being written field by field packet by packet.
import { type CapturedPacket, PacketRecord } from "@tracemill/core";
import type { CaptureFileWriter } from "../capture/index.js";

const RECORD_HEADER = 16;

/**
 * Valid only when the input's records already have the output's layout (little-endian, same timestamp
 * resolution): see `copiesVerbatim`. A run is held within the chunk the cursor read last, so `beforeRead()`
 * must be called before the cursor reads the next one (its buffer is reused), and `flush()` before any other
 * packet is written and before the writer is closed.
 */
export class VerbatimRuns {
  private chunk: Uint8Array | null = null;
  private runStart = 0;
  private runEnd = 0;
  private runCount = 0;

  constructor(private readonly out: CaptureFileWriter) {}

  /** The cursor read `chunk`; records inside it may be held until the next read. */
  onChunk(chunk: Uint8Array): void {
    this.chunk = chunk;
  }

  /** A writer above its high-water mark says so again at the next write, so the flag is not needed here. */
  beforeRead(): void {
    this.flush();
    this.chunk = null;
  }

  /** Adds the next output packet; false means: await the writer's drain() before the next write. */
  add(packet: CapturedPacket): boolean {
    if (packet instanceof PacketRecord) {
      const start = packet.offset - RECORD_HEADER;
      const end = packet.offset + packet.capturedLength;
      if (packet.buffer === this.chunk) {
        const ok = this.runCount > 0 && start !== this.runEnd ? this.flush() : true;
        if (this.runCount === 0) this.runStart = start;
        this.runEnd = end;
        this.runCount++;
        return ok;
      }
      // A record that spanned two chunks sits in the reader's carry buffer, which the next read may reuse.
      const ok = this.flush();
      return this.out.writeRecords(packet.buffer, start, end, 1) && ok;
    }
    // A late packet held from the first pass: a copy, written from its fields.
    const ok = this.flush();
    return this.out.write(packet) && ok;
  }

  /** Writes the held run; false means: await the writer's drain() before the next write. */
  flush(): boolean {
    if (this.runCount === 0) return true;
    const count = this.runCount;
    this.runCount = 0;
    return this.out.writeRecords(this.chunk!, this.runStart, this.runEnd, count);
  }
}

/** The input's records can be copied into the planned pcap output unchanged. */
export function copiesVerbatim(
  info: { format: string; byteOrder: string; interfaces: { unitsPerSecond: number }[] },
  nanosecondOutput: boolean,
): boolean {
  const units = nanosecondOutput ? 1e9 : 1e6;
  return (
    info.format === "pcap" &&
    info.byteOrder === "little-endian" &&
    info.interfaces.length === 1 &&
    info.interfaces[0].unitsPerSecond === units
  );
}

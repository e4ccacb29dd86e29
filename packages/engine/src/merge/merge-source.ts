// The pull interface the merge reads each input through: synchronous packets, asynchronous refills.
import type { CapturedPacket } from "@tracemill/core/capture";

/**
 * A cursor over one input. next() returns the next packet (valid until the next call to next() or fill()), or
 * null when it has none at hand: then fill() fetches more input and resolves false at the end of the input.
 */
export interface MergeSource {
  next(): CapturedPacket | null;
  fill(): Promise<boolean>;
  /** Comments of the packet next() returned last (pcapng opt_comment); empty when it has none. */
  packetComments(): string[];
}

/** The next packet of a source, refilling as needed; null at the end. */
export async function pull(source: MergeSource): Promise<CapturedPacket | null> {
  for (;;) {
    const packet = source.next();
    if (packet) return packet;
    if (!(await source.fill())) return source.next();
  }
}

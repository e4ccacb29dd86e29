// The second pass when the output is pcap and the background's records already have its layout: the background
// is read as raw records (timestamps from their headers, no packet objects) and copied as byte ranges, whole
// runs at a time; attack packets and the background's late packets are written field by field in between.
// The order is the same as mergeOrdered over InOrderSource: background (file order on ties) before attacks.
import { CHUNKS_PER_TURN, yieldToEventLoop } from "../input/index.js";
import type { MergeSource } from "./merge-source.js";
import { ATTACK_NEEDED, CHUNK_DONE, RawMerge, type RawMergeContext } from "./raw-merge-state.js";
import type { CaptureScan } from "./scan.js";
import type { Timestamp } from "./timestamp.js";

export async function mergeRawBackground(
  input: { read(): Promise<Uint8Array | null>; readonly fileBytesRead: number },
  scan: CaptureScan,
  attacks: MergeSource,
  shift: Timestamp,
  context: RawMergeContext,
): Promise<number> {
  const merge = new RawMerge(scan, attacks, shift, context);
  await merge.pullAttack();
  let chunks = 0;
  for (let chunk = await input.read(); chunk; chunk = await input.read()) {
    if (++chunks % CHUNKS_PER_TURN === 0) await yieldToEventLoop();
    merge.startChunk(chunk);
    for (;;) {
      const wants = merge.step();
      if (wants === CHUNK_DONE) break;
      if (wants === ATTACK_NEEDED) await merge.pullAttack();
      else {
        context.signal?.throwIfAborted();
        if (merge.takeDrain()) await context.out.drain();
      }
    }
    merge.endChunk();
  }
  merge.checkComplete(input.fileBytesRead);
  // What is left: late packets and attacks, by the same rule.
  while (!merge.emitBefore(Number.POSITIVE_INFINITY, 0, 0)) await merge.pullAttack();
  return merge.written;
}

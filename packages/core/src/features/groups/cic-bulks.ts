// Fwd Avg Bytes/Bulk … Bwd Avg Bulk Rate: bulk transfers per direction, as CICFlowMeter defines them. A bulk is a run
// of at least BULK_PACKETS consecutive payload-carrying packets of one direction, each at most BULK_GAP_NS after the
// previous one, with no payload-carrying packet of the other direction in between (packets without payload neither
// count nor break a run). Its duration is its last packet's time less its first's.
import type { RowBuilder } from "../../outputs/row-builder.js";
import type { FeatureGroup } from "../feature-group.js";

/** CICFlowMeter's bulk threshold: a run becomes a bulk at its 4th packet. */
export const BULK_PACKETS = 4;
/** CICFlowMeter's longest gap inside a bulk: 1 s. */
export const BULK_GAP_NS = 1e9;

/** Per direction, in the session-wide slots (a packet ends the other direction's run): this many numbers. */
const RUN_START = 0;
const RUN_LAST = 1;
const RUN_PACKETS = 2;
const RUN_BYTES = 3;
const BULKS = 4;
const BULK_PACKETS_SUM = 5;
const BULK_BYTES = 6;
const BULK_NS = 7;
const BLOCK = 8;

export const cicBulks: FeatureGroup = {
  name: "cic-bulks",
  kind: "measuring",
  firstPacketDetail: true,
  columns: [
    { name: "Fwd Avg Bytes/Bulk", type: "real" },
    { name: "Fwd Avg Packets/Bulk", type: "real" },
    { name: "Fwd Avg Bulk Rate", type: "real" },
    { name: "Bwd Avg Bytes/Bulk", type: "real" },
    { name: "Bwd Avg Packets/Bulk", type: "real" },
    { name: "Bwd Avg Bulk Rate", type: "real" },
  ],
  sideSlots: 0,
  flowSlots: 2 * BLOCK,
  update(s, _side, flow, packet) {
    const size = packet.payloadLength;
    if (size <= 0) return;
    const at = packet.forward ? flow : flow + BLOCK;
    s[packet.forward ? flow + BLOCK + RUN_PACKETS : flow + RUN_PACKETS] = 0;
    const time = packet.time;
    const packets = s[at + RUN_PACKETS];
    if (packets === 0 || time - s[at + RUN_LAST] > BULK_GAP_NS) {
      s[at + RUN_START] = time;
      s[at + RUN_LAST] = time;
      s[at + RUN_PACKETS] = 1;
      s[at + RUN_BYTES] = size;
      return;
    }
    s[at + RUN_PACKETS] = packets + 1;
    s[at + RUN_BYTES] += size;
    if (packets + 1 === BULK_PACKETS) {
      s[at + BULKS]++;
      s[at + BULK_PACKETS_SUM] += BULK_PACKETS;
      s[at + BULK_BYTES] += s[at + RUN_BYTES];
      s[at + BULK_NS] += time - s[at + RUN_START];
    } else if (packets + 1 > BULK_PACKETS) {
      s[at + BULK_PACKETS_SUM]++;
      s[at + BULK_BYTES] += size;
      s[at + BULK_NS] += time - s[at + RUN_LAST];
    }
    s[at + RUN_LAST] = time;
  },
  finish(s, _fwd, _bwd, flow, _session, row) {
    writeBulks(s, flow, row);
    writeBulks(s, flow + BLOCK, row);
  },
};

function writeBulks(s: Float64Array, at: number, row: RowBuilder): void {
  const bulks = s[at + BULKS];
  if (bulks === 0) {
    row.zeros(3);
    return;
  }
  row.decimal(s[at + BULK_BYTES] / bulks);
  row.decimal(s[at + BULK_PACKETS_SUM] / bulks);
  // Bytes per second of bulk time; 0 when every bulk took no time (all its packets at one instant).
  const ns = s[at + BULK_NS];
  row.decimal(ns > 0 ? (s[at + BULK_BYTES] * 1e9) / ns : 0);
}

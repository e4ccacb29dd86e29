// NFStream's early-packet sequences (splt_direction, splt_ps, splt_piat_ms): the session's first N packets
// (--splt N), each its direction (0 forward, 1 backward), size and gap in milliseconds since the previous packet
// (0 for the first), padded with −1 to N entries; list columns.
import type { FeatureGroup } from "../feature-group.js";
import { DEFAULT_SPLT, MAX_SPLT, PacketSequences } from "../packet-sequences.js";

const NS_PER_MS = 1e6;
/** The lists as written, reused from row to row. */
const directions = new Int32Array(MAX_SPLT);
const sizes = new Int32Array(MAX_SPLT);
const gaps = new Int32Array(MAX_SPLT);

/**
 * Session slots: packets in the sequence so far (at most N), the previous packet's millisecond, and the first
 * packet's size word (size, or −size − 1 backward); entries 1 … N − 1 are in the run's PacketSequences, by record
 * slot.
 */
export const nfstreamSplt: FeatureGroup = {
  name: "nfstream-splt",
  kind: "measuring",
  columns: [
    { name: "splt_direction", type: "list" },
    { name: "splt_ps", type: "list" },
    { name: "splt_piat_ms", type: "list" },
  ],
  sideSlots: 0,
  flowSlots: 3,
  store: (options) => new PacketSequences(options.splt ?? DEFAULT_SPLT),
  update(s, _side, at, packet, store) {
    const sequences = store as PacketSequences;
    const count = s[at];
    if (count >= sequences.length) return;
    const ms = Math.floor(packet.time / NS_PER_MS);
    const sizeWord = packet.forward ? packet.length : -packet.length - 1;
    if (count === 0) {
      sequences.restart(packet.slot);
      s[at + 2] = sizeWord;
    } else {
      sequences.put(packet.slot, count, sizeWord, ms - s[at + 1]);
    }
    s[at + 1] = ms;
    s[at] = count + 1;
  },
  finish(s, _fwd, _bwd, at, session, row, store) {
    const sequences = store as PacketSequences;
    const length = sequences.length;
    const count = s[at];
    for (let i = 0; i < length; i++) {
      if (i >= count) {
        directions[i] = -1;
        sizes[i] = -1;
        gaps[i] = -1;
        continue;
      }
      const word = i === 0 ? s[at + 2] : sequences.sizeWord(session.slot, i);
      directions[i] = word < 0 ? 1 : 0;
      sizes[i] = word < 0 ? -word - 1 : word;
      gaps[i] = i === 0 ? 0 : sequences.gapMs(session.slot, i);
    }
    row.list(directions, length);
    row.list(sizes, length);
    row.list(gaps, length);
  },
};

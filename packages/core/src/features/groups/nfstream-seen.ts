// NFStream's times and counters per direction (bidirectional_first_seen_ms … dst2src_bytes): milliseconds as NFStream
// takes them, each packet's time truncated to the millisecond.
import type { Session } from "../../flow/session.js";
import type { RowBuilder } from "../../outputs/row-builder.js";
import type { FeatureGroup } from "../feature-group.js";

const NS_PER_MS = 1e6;

/**
 * Per side: the first packet's time + 1 (0: none yet) and the last packet's time, in the session's nanoseconds.
 * Naming: a one-packet session's seen times are its own.
 */
export const nfstreamSeen: FeatureGroup = {
  name: "nfstream-seen",
  kind: "naming",
  columns: ["bidirectional", "src2dst", "dst2src"].flatMap((way) => [
    { name: `${way}_first_seen_ms`, type: "int" as const },
    { name: `${way}_last_seen_ms`, type: "int" as const },
    { name: `${way}_duration_ms`, type: "int" as const },
    { name: `${way}_packets`, type: "int" as const },
    { name: `${way}_bytes`, type: "int" as const },
  ]),
  sideSlots: 2,
  flowSlots: 0,
  update(s, side, _flow, packet) {
    if (s[side] === 0) s[side] = packet.time + 1;
    s[side + 1] = packet.time;
  },
  finish(s, fwd, bwd, _flow, session, row) {
    const packets = session.fwdPackets + session.bwdPackets;
    writeWay(session, session.firstTime, session.lastTime, packets, session.fwdBytes + session.bwdBytes, row);
    writeWay(session, s[fwd] - 1, s[fwd + 1], session.fwdPackets, session.fwdBytes, row);
    writeWay(session, s[bwd] - 1, s[bwd + 1], session.bwdPackets, session.bwdBytes, row);
  },
};

/** One direction's five columns; all 0 when it has no packet (as NFStream's dst2src of a one-way flow). */
function writeWay(
  session: Session,
  first: number,
  last: number,
  packets: number,
  bytes: number,
  row: RowBuilder,
): void {
  if (packets === 0) {
    row.zeros(5);
    return;
  }
  // The session's base second is whole, so truncating its nanoseconds truncates the epoch time.
  const firstMs = Math.floor(first / NS_PER_MS);
  const lastMs = Math.floor(last / NS_PER_MS);
  row.signed(session.baseSec * 1000 + firstMs);
  row.signed(session.baseSec * 1000 + lastMs);
  row.int(lastMs - firstMs);
  row.int(packets);
  row.int(bytes);
}

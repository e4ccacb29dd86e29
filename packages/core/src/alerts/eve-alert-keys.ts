// The top-level member names of an EVE alert line that EveAlertReader reads, told apart by length and a byte or two
// before one full comparison (a line has some twenty members).
import { ascii, bytesEqual } from "./eve-bytes.js";

export const Key = {
  Other: 0,
  Timestamp: 1,
  FlowId: 2,
  PcapCnt: 3,
  EventType: 4,
  SrcIp: 5,
  DestIp: 6,
  SrcPort: 7,
  DestPort: 8,
  Proto: 9,
  IcmpType: 10,
  IcmpCode: 11,
  Alert: 12,
  Flow: 13,
  Packet: 14,
  PacketInfo: 15,
  Tunnel: 16,
} as const;
export type Key = (typeof Key)[keyof typeof Key];

/** The top-level member names read, by length: the first byte (and one more for icmp_*) picks the candidate. */
const names: [Key, Uint8Array][] = (
  [
    [Key.Timestamp, "timestamp"],
    [Key.FlowId, "flow_id"],
    [Key.PcapCnt, "pcap_cnt"],
    [Key.EventType, "event_type"],
    [Key.SrcIp, "src_ip"],
    [Key.DestIp, "dest_ip"],
    [Key.SrcPort, "src_port"],
    [Key.DestPort, "dest_port"],
    [Key.Proto, "proto"],
    [Key.IcmpType, "icmp_type"],
    [Key.IcmpCode, "icmp_code"],
    [Key.Alert, "alert"],
    [Key.Flow, "flow"],
    [Key.Packet, "packet"],
    [Key.PacketInfo, "packet_info"],
    [Key.Tunnel, "tunnel"],
  ] as const
).map(([key, name]) => [key, ascii(name)]);

/** Candidates per (length, first byte, byte 5): at most one name each. */
const byShape = new Map<number, [Key, Uint8Array]>(
  names.map(([key, name]) => [shape(name, 0, name.length), [key, name]]),
);

function shape(b: Uint8Array, from: number, to: number): number {
  return ((to - from) << 16) | (b[from] << 8) | (to - from > 5 ? b[from + 5] : 0);
}

export function keyOf(b: Uint8Array, from: number, to: number): Key {
  const candidate = byShape.get(shape(b, from, to));
  return candidate && bytesEqual(b, from, to, candidate[1]) ? candidate[0] : Key.Other;
}

// The member names of an EVE alert line that EveAlertReader reads, in the order Suricata 7 writes them (optional ones
// included where they appear), and the names of its "flow" object, for MemberOrder.
import { MemberOrder } from "./eve-member-order.js";

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
  /** In the "flow" object. */
  Start: 17,
  Vlan: 18,
} as const;
export type Key = (typeof Key)[keyof typeof Key];

/** Top-level members of an alert line; the unread ones are listed too, so the next read one is found in place. */
export function alertMemberOrder(): MemberOrder {
  return new MemberOrder(
    [
      [Key.Timestamp, "timestamp"],
      [Key.FlowId, "flow_id"],
      [Key.Other, "parent_id"],
      [Key.PcapCnt, "pcap_cnt"],
      [Key.EventType, "event_type"],
      [Key.Vlan, "vlan"],
      [Key.SrcIp, "src_ip"],
      [Key.SrcPort, "src_port"],
      [Key.DestIp, "dest_ip"],
      [Key.DestPort, "dest_port"],
      [Key.Proto, "proto"],
      [Key.IcmpType, "icmp_type"],
      [Key.IcmpCode, "icmp_code"],
      [Key.Other, "pkt_src"],
      [Key.Tunnel, "tunnel"],
      [Key.Other, "tx_id"],
      [Key.Other, "tx_guessed"],
      [Key.Alert, "alert"],
      [Key.Other, "app_proto"],
      [Key.Other, "direction"],
      [Key.Flow, "flow"],
      [Key.Packet, "packet"],
      [Key.PacketInfo, "packet_info"],
    ],
    Key.Other,
  );
}

/** Members of an alert's "flow" object (with flow metadata on); only "start" is read. */
export function alertFlowMemberOrder(): MemberOrder {
  return new MemberOrder(
    [
      [Key.Other, "pkts_toserver"],
      [Key.Other, "pkts_toclient"],
      [Key.Other, "bytes_toserver"],
      [Key.Other, "bytes_toclient"],
      [Key.Start, "start"],
      [Key.Other, "src_ip"],
      [Key.Other, "dest_ip"],
      [Key.Other, "src_port"],
      [Key.Other, "dest_port"],
    ],
    Key.Other,
  );
}

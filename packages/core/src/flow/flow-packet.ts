// The per-packet record the flow table hands to its hooks: one reused object, filled for every packet.
import type { DecodedPacket } from "../decode/decoded-packet.js";

export interface FlowPacket {
  /** The decoded packet (valid during the hook call only). */
  decoded: DecodedPacket;
  /**
   * Nanoseconds since the session's base second (Session.baseSec, its first packet's second): an exact integer at any
   * distance from the capture's start. Never decreases within a session (see FlowTable.outOfOrder).
   */
  time: number;
  /** Position of the packet in the capture. */
  index: number;
  /**
   * Nanoseconds since the session's previous packet, either direction; -1 for its first packet. The table reads the
   * previous time anyway (the idle rule), so extractors of gaps between the session's packets need no copy of it.
   */
  gap: number;
  /** Bytes this packet counts for: the IP length, or the frame's original length with `length: "frame"`. */
  length: number;
  /** IP header (with options / extension headers) plus TCP header or UDP header, in bytes. */
  headerLength: number;
  /** TCP flags byte; 0 for UDP. */
  tcpFlags: number;
  /** The TCP or UDP header alone, in bytes (DecodedPacket.transportHeaderLength: 0 for a TCP header cut short). */
  transportHeaderLength: number;
  /** Transport payload bytes per the IP header (DecodedPacket.payloadLength), whatever `length` counts. */
  payloadLength: number;
  /** TCP window field as sent (not scaled); 0 for UDP. */
  window: number;
  /** True when the packet goes from the session's forward side to its backward side. */
  forward: boolean;
  /** The session record's store slot (Session.slot), so that a hook can find per-record state without the record. */
  slot: number;
}

/**
 * An empty FlowPacket. Every one is made here, so that the flow table's packet and the feature set's replayed first
 * packets share one object shape and the extractors' property loads stay monomorphic.
 */
export function createFlowPacket(): FlowPacket {
  return {
    decoded: null as unknown as DecodedPacket,
    time: 0,
    index: 0,
    gap: -1,
    length: 0,
    headerLength: 0,
    tcpFlags: 0,
    transportHeaderLength: 0,
    payloadLength: 0,
    window: 0,
    forward: true,
    slot: 0,
  };
}

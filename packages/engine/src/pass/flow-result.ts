// What the pass counts: the result of runFlowPipeline, and an empty one whose key order is the run summary's.
import { type CaptureDamage, type CaptureFormat, EndReason } from "@tracemill/core";
import type { ReadResult } from "./read-inputs.js";

/** Why packets did not go into a session. */
export interface IgnoredPackets {
  "non-IP": number;
  "non-TCP/UDP": number;
  truncated: number;
  malformed: number;
  /** Later fragments whose first fragment never arrived (within the tracker's timeout), so their ports are unknown. */
  "fragment without its first fragment": number;
}

export interface FlowResult {
  /** The first input's format. */
  format: CaptureFormat;
  /** All inputs' bytes. */
  fileBytes: number;
  /** Every input was read to its end; `damage` is the first input's damage otherwise. */
  complete: boolean;
  damage: CaptureDamage | null;
  /** Each input's own read, in the order given. */
  files: ReadResult[];
  packets: {
    read: number;
    /** Packets that went into a session (decoded to TCP or UDP). */
    decoded: number;
    ignored: IgnoredPackets;
    /** Packets whose timestamp went back in time: counted in their session at the latest time seen. */
    outOfOrder: number;
  };
  fragments: { attributed: number; resolvedLater: number };
  sessions: {
    total: number;
    byProtocol: { tcp: number; udp: number };
    byEndReason: Record<EndReason, number>;
  };
}

/** A result with every count at 0 (the key order is the summary's). */
export function emptyResult(): FlowResult {
  return {
    format: "pcap",
    fileBytes: 0,
    complete: true,
    damage: null,
    files: [],
    packets: {
      read: 0,
      decoded: 0,
      ignored: {
        "non-IP": 0,
        "non-TCP/UDP": 0,
        truncated: 0,
        malformed: 0,
        "fragment without its first fragment": 0,
      },
      outOfOrder: 0,
    },
    fragments: { attributed: 0, resolvedLater: 0 },
    sessions: {
      total: 0,
      byProtocol: { tcp: 0, udp: 0 },
      byEndReason: {
        [EndReason.Fin]: 0,
        [EndReason.Rst]: 0,
        [EndReason.Idle]: 0,
        [EndReason.Active]: 0,
        [EndReason.EndOfCapture]: 0,
      },
    },
  };
}

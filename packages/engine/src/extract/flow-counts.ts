// The run counts of the features pass: an empty result (its key order is the summary's, so the single pass and
// `extract --threads N` write byte-identical summaries), and the sum of session counts from several workers.
import { EndReason } from "@tracemill/core";
import type { FlowResult } from "./flow-pipeline.js";

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

export function addSessions(into: FlowResult["sessions"], from: FlowResult["sessions"]): void {
  into.total += from.total;
  into.byProtocol.tcp += from.byProtocol.tcp;
  into.byProtocol.udp += from.byProtocol.udp;
  for (const reason of Object.values(EndReason)) into.byEndReason[reason] += from.byEndReason[reason];
}

// The run counts of `extract --threads N`: the single pass's result shape (same keys in the same order, so the
// summaries are byte-identical), filled by the reading thread and the sum of the workers' session counts.
import { EndReason } from "@tracemill/core";
import type { FlowResult } from "./flow-pipeline.js";

export function addSessions(into: FlowResult["sessions"], from: FlowResult["sessions"]): void {
  into.total += from.total;
  into.byProtocol.tcp += from.byProtocol.tcp;
  into.byProtocol.udp += from.byProtocol.udp;
  for (const reason of Object.values(EndReason)) into.byEndReason[reason] += from.byEndReason[reason];
}

export function emptyResult(): FlowResult {
  return {
    format: "pcap",
    fileBytes: 0,
    complete: true,
    damage: null,
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

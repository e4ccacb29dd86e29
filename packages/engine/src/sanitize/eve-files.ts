// Streams Suricata's EVE files line by line: alerts (normalized) and the flow records of alerted sessions.
import fs from "node:fs";
import readline from "node:readline";
import {
  type Alert,
  type ClassificationTable,
  parseEveAlertLine,
  parseEveTimestamp,
  parseIpAddress,
} from "@tracemill/core";
import type { AttackFlow } from "./attack-sessions.js";

/** Calls `onAlert` for every alert of an EVE file, in file order. */
export async function readEveAlerts(
  file: string,
  classifications: ClassificationTable | undefined,
  onAlert: (alert: Alert) => void,
): Promise<void> {
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let line = 0;
  for await (const text of lines) {
    line++;
    const alert = parseEveAlertLine(text, classifications, { file, line });
    if (alert) onAlert(alert);
  }
}

/** The flow records (EVE "flow" events) whose flow_id is in `flowIds`, as time intervals in microseconds. */
export async function readEveFlows(file: string, flowIds: Set<string>): Promise<Map<string, AttackFlow>> {
  const flows = new Map<string, AttackFlow>();
  if (flowIds.size === 0) return flows;
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  for await (const text of lines) {
    const id = /"flow_id":\s*(\d+)/.exec(text)?.[1];
    if (!id || !flowIds.has(id)) continue;
    const event = JSON.parse(text) as EveFlowEvent;
    const src = parseIpAddress(event.src_ip ?? "");
    const dst = parseIpAddress(event.dest_ip ?? "");
    const start = parseEveTimestamp(event.flow?.start ?? "");
    const end = parseEveTimestamp(event.flow?.end ?? "");
    if (!src || !dst || !start || !end) continue;
    flows.set(id, {
      protocol: protocolOf(event.proto),
      src,
      srcPort: event.src_port ?? 0,
      dst,
      dstPort: event.dest_port ?? 0,
      startUs: toUs(start),
      endUs: toUs(end),
    });
  }
  return flows;
}

export function toUs(ts: { tsSec: number; tsNsec: number }): number {
  return ts.tsSec * 1_000_000 + Math.floor(ts.tsNsec / 1000);
}

function protocolOf(proto: string | undefined): number {
  if (proto === "TCP") return 6;
  if (proto === "UDP") return 17;
  return -1;
}

interface EveFlowEvent {
  src_ip?: string;
  dest_ip?: string;
  src_port?: number;
  dest_port?: number;
  proto?: string;
  flow?: { start?: string; end?: string };
}

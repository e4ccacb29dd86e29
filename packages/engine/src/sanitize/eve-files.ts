// Suricata's EVE flow records: read line by line, counted, and turned into the time intervals of alerted sessions.
import fs from "node:fs";
import { parseEveTimestamp, parseIpAddress } from "@tracemill/core";
import type { AttackFlow } from "./attack-sessions.js";

/** Calls `onLine` for every line of a text file (readline is several times slower on EVE-sized files). */
export async function forEachLine(file: string, onLine: (line: string, number: number) => void): Promise<void> {
  let rest = "";
  let number = 0;
  for await (const chunk of fs.createReadStream(file, { encoding: "utf8", highWaterMark: 4 * 1024 * 1024 })) {
    const lines = (rest + (chunk as string)).split("\n");
    rest = lines.pop() ?? "";
    for (const line of lines) onLine(line, ++number);
  }
  if (rest !== "") onLine(rest, ++number);
}

export interface EveFlows {
  /** The flow records whose flow_id was asked for, as time intervals in microseconds. */
  flows: Map<string, AttackFlow>;
  /** TCP and UDP flow records in the file (Suricata's sessions). */
  sessions: number;
}

/** True for the flow record of a TCP or UDP flow (a session, as the split counts them). */
export function isSessionFlowLine(text: string): boolean {
  return text.includes('"proto":"TCP"') || text.includes('"proto":"UDP"');
}

/** The flow id of an EVE line (64-bit, as text). */
export function eveFlowId(text: string): string | undefined {
  return /"flow_id":(\d+)/.exec(text)?.[1];
}

/**
 * One EVE flow record as a time interval in microseconds; undefined when it lacks what that needs. Read with
 * patterns, not JSON.parse: a flow record's first src_ip, ports, proto, start and end are its own (nothing nested
 * before them repeats those names), and this runs for every alerted flow.
 */
export function parseFlowLine(text: string): AttackFlow | undefined {
  const src = parseIpAddress(/"src_ip":"([^"]+)"/.exec(text)?.[1] ?? "");
  const dst = parseIpAddress(/"dest_ip":"([^"]+)"/.exec(text)?.[1] ?? "");
  const start = parseEveTimestamp(/"start":"([^"]+)"/.exec(text)?.[1] ?? "");
  const end = parseEveTimestamp(/"end":"([^"]+)"/.exec(text)?.[1] ?? "");
  if (!src || !dst || !start || !end) return undefined;
  const proto = /"proto":"([^"]+)"/.exec(text)?.[1];
  return {
    protocol: proto === "TCP" ? 6 : proto === "UDP" ? 17 : -1,
    src,
    srcPort: Number(/"src_port":(\d+)/.exec(text)?.[1] ?? 0),
    dst,
    dstPort: Number(/"dest_port":(\d+)/.exec(text)?.[1] ?? 0),
    startUs: toUs(start),
    endUs: toUs(end),
  };
}

/** Reads the EVE flow records: all are counted, those in `flowIds` are returned. */
export async function readEveFlows(file: string, flowIds: Set<string>): Promise<EveFlows> {
  const flows = new Map<string, AttackFlow>();
  let sessions = 0;
  await forEachLine(file, (text) => {
    if (isSessionFlowLine(text)) sessions++;
    const id = flowIds.size > 0 ? eveFlowId(text) : undefined;
    if (!id || !flowIds.has(id)) return;
    const flow = parseFlowLine(text);
    if (flow) flows.set(id, flow);
  });
  return { flows, sessions };
}

export function toUs(ts: { tsSec: number; tsNsec: number }): number {
  return ts.tsSec * 1_000_000 + Math.floor(ts.tsNsec / 1000);
}

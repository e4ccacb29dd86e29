// Test-only: hand-written packet lines run through a flow table and the feature set as the extraction pass wires
// them, giving the CSV rows (in start order) to compare with exact expected rows.
import { createDecodedPacket, DecodeKind, TcpFlag } from "../decode/decoded-packet.js";
import type { FeatureOptions, FeatureSetDefinition } from "../features/feature-group.js";
import { FEATURE_COLUMNS, FeatureSet, type FeatureState } from "../features/feature-set.js";
import { FlowTable } from "../flow/flow-table.js";
import type { FlowTableOptions } from "../flow/flow-table-options.js";
import type { EndReason } from "../flow/session.js";
import { OrderedRows } from "../outputs/ordered-rows.js";
import { RowBuilder } from "../outputs/row-builder.js";

const BASE_SEC = 1_700_000_000;
const FLAG_LETTERS: Record<string, number> = {
  F: TcpFlag.FIN,
  S: TcpFlag.SYN,
  R: TcpFlag.RST,
  P: TcpFlag.PSH,
  A: TcpFlag.ACK,
  U: TcpFlag.URG,
  E: TcpFlag.ECE,
  C: TcpFlag.CWR,
};

/** Parses "10.0.0.1" or "2001:db8::1" into 4 or 16 bytes. */
function parseAddress(text: string, out: Uint8Array): 4 | 6 {
  if (!text.includes(":")) {
    text.split(".").forEach((part, i) => {
      out[i] = Number(part);
    });
    return 4;
  }
  const [head, tail] = text.split("::");
  const left = head ? head.split(":") : [];
  const right = tail ? tail.split(":") : [];
  const groups = [...left, ...new Array(8 - left.length - right.length).fill("0"), ...right];
  groups.forEach((group, i) => {
    const value = Number.parseInt(group, 16);
    out[2 * i] = value >> 8;
    out[2 * i + 1] = value & 255;
  });
  return 6;
}

/**
 * Runs "time src:port > dst:port tcp|udp FLAGS ipLength ipHeader/transportHeader [win=N]" lines through table and
 * features (the payload is what the lengths leave, as the decoder has it; the TCP window is N, else 0);
 * `rows` are written as the extraction pass writes them (FeatureSet.write), `fullRows` (by seq, without line
 * feeds) from each session's state by finish(), and `states` holds that state, by seq. `sets`: the feature sets
 * after the session key (default: the default sets). `run`: the feature options, and the length packets count for
 * (`length: "frame"`: ipLength + 14, an Ethernet frame's).
 */
export function runScenario(
  packets: string,
  options: FlowTableOptions = {},
  sets?: readonly FeatureSetDefinition[],
  run: FeatureOptions & { length?: "ip" | "frame" } = {},
) {
  const features = new FeatureSet(sets, run);
  const row = new RowBuilder();
  const full = new RowBuilder();
  const fullRows: string[] = [];
  let csv = "";
  const ordered = new OrderedRows((bytes, start, end) => {
    csv += String.fromCharCode(...bytes.subarray(start, end));
  });
  const reasons: EndReason[] = [];
  const states: FeatureState[] = [];
  const table = new FlowTable(
    {
      onStart: (session, packet) => features.start(session, packet),
      onPacket: (session, packet) => {
        const state = features.stateFor(session, packet);
        if (state >= 0) features.update(state, packet);
      },
      onEnd: (session) => {
        reasons[session.seq] = session.endReason;
        row.start();
        features.write(session, row);
        row.end();
        ordered.put(session.seq, row.bytes, row.length);
        // The same row from the session's state, with no text kept for one-packet sessions.
        states[session.seq] = features.stateOf(session);
        full.start();
        features.finish(states[session.seq], session, full);
        fullRows[session.seq] = String.fromCharCode(...full.bytes.subarray(0, full.length));
        features.end(session);
      },
    },
    options,
  );
  const decoded = createDecodedPacket();
  packets
    .trim()
    .split("\n")
    .forEach((line, index) => {
      const [time, src, , dst, protocol, flags, length, headers, window = "win=0"] = line.trim().split(/\s+/);
      const endpoint = (text: string) => /^\[?(.*?)\]?:(\d+)$/.exec(text)!;
      const [, srcAddress, srcPort] = endpoint(src);
      const [, dstAddress, dstPort] = endpoint(dst);
      decoded.ipVersion = parseAddress(srcAddress, decoded.src);
      parseAddress(dstAddress, decoded.dst);
      decoded.kind = protocol === "tcp" ? DecodeKind.Tcp : DecodeKind.Udp;
      decoded.protocol = protocol === "tcp" ? 6 : 17;
      decoded.srcPort = Number(srcPort);
      decoded.dstPort = Number(dstPort);
      decoded.tcpFlags = [...flags.replace("-", "")].reduce((bits, letter) => bits | FLAG_LETTERS[letter], 0);
      decoded.ipLength = Number(length);
      const [ipHeader, transportHeader] = headers.split("/").map(Number);
      decoded.ipHeaderLength = ipHeader;
      decoded.transportHeaderLength = transportHeader;
      decoded.payloadLength = decoded.ipLength - ipHeader - transportHeader;
      decoded.tcpWindow = Number(window.slice(4));
      const [whole, fraction = ""] = time.split(".");
      const nsec = Number(fraction.padEnd(9, "0"));
      const counted = run.length === "frame" ? decoded.ipLength + 14 : decoded.ipLength;
      table.add(decoded, BASE_SEC + Number(whole), nsec, counted, index);
    });
  table.flush();
  return { rows: csv.trim().split("\n"), fullRows, reasons, states, outOfOrder: table.outOfOrder };
}

/** A CSV line's cells, a quoted cell (a list column) with its quotes. */
export function cells(line: string): string[] {
  return line.match(/"[^"]*"|[^,]+/g) ?? [];
}

export function record(line: string): Record<string, string> {
  const values = line.split(",");
  return Object.fromEntries(FEATURE_COLUMNS.map((name, i) => [name, values[i]]));
}

export interface Case {
  title: string;
  packets: string;
  rows: string[];
  reasons: EndReason[];
  outOfOrder: number;
  options?: FlowTableOptions;
}

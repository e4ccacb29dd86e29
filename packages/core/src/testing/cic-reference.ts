// Test-only: sessions written as arrays of packets, rendered as feature-scenario lines, and the cic set's expected
// columns computed from those arrays straight from docs/features/cic.md (whole lists, two-pass statistics, runs cut
// by hand), sharing no code with the groups.

/** A packet of a test session: its time in ns from the scenario's start, its direction and its fields. */
export interface RefPacket {
  ns: number;
  /** Sent by the session's forward side (the client). */
  fwd: boolean;
  /** TCP flag letters (feature-scenario's), "" for none. */
  flags: string;
  payload: number;
  ipHeader: number;
  transportHeader: number;
  window: number;
}

export interface RefSession {
  protocol: "tcp" | "udp";
  /** "10.0.0.1:40000" or "[2001:db8::1]:40000". */
  client: string;
  server: string;
  packets: RefPacket[];
}

/** A TCP packet at `us` microseconds (fractions give ns), ">" forward or "<" backward, IPv4 + 32-byte TCP header. */
export function tcpAt(us: number, way: ">" | "<", flags: string, payload = 0, window = 0, headers = [20, 32]) {
  return packet(us, way, flags, payload, window, headers);
}

/** A UDP packet at `us` microseconds with an IPv4 header (or `ipHeader`). */
export function udpAt(us: number, way: ">" | "<", payload: number, ipHeader = 20) {
  return packet(us, way, "", payload, 0, [ipHeader, 8]);
}

function packet(us: number, way: ">" | "<", flags: string, payload: number, window: number, headers: number[]) {
  const [ipHeader, transportHeader] = headers;
  return { ns: Math.round(us * 1000), fwd: way === ">", flags, payload, ipHeader, transportHeader, window };
}

/** The sessions' packets as feature-scenario lines, in time order (ties in the order given). */
export function scenarioLines(sessions: readonly RefSession[]): string {
  const all = sessions.flatMap((session, s) => session.packets.map((p, i) => ({ session, p, key: [p.ns, s, i] })));
  all.sort((a, b) => a.key[0] - b.key[0] || a.key[1] - b.key[1] || a.key[2] - b.key[2]);
  return all
    .map(({ session, p }) => {
      const time = `${Math.floor(p.ns / 1e9)}.${String(p.ns % 1e9).padStart(9, "0")}`;
      const [from, to] = p.fwd ? [session.client, session.server] : [session.server, session.client];
      const length = p.ipHeader + p.transportHeader + p.payload;
      const flags = p.flags === "" ? "-" : p.flags;
      return `${time} ${from} > ${to} ${session.protocol} ${flags} ${length} ${p.ipHeader}/${p.transportHeader} win=${p.window}`;
    })
    .join("\n");
}

/** A non-negative real as RowBuilder.decimal writes it: rounded to 6 decimals, trailing zeros dropped. */
export function decimalText(value: number): string {
  if (value === -1) return "-1";
  if (!(value > 0)) return "0";
  const scaled = Math.round(value * 1e6);
  const whole = Math.floor(scaled / 1e6);
  const fraction = String(scaled - whole * 1e6)
    .padStart(6, "0")
    .replace(/0+$/, "");
  return fraction === "" ? String(whole) : `${whole}.${fraction}`;
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);
const mean = (values: readonly number[]) => (values.length === 0 ? 0 : sum(values) / values.length);
/** Sample variance (n − 1), 0 below two values. */
function variance(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const m = mean(values);
  return sum(values.map((value) => (value - m) ** 2)) / (values.length - 1);
}
const std = (values: readonly number[]) => Math.sqrt(variance(values));
const min = (values: readonly number[]) => (values.length === 0 ? 0 : Math.min(...values));
const max = (values: readonly number[]) => (values.length === 0 ? 0 : Math.max(...values));
/** Differences of consecutive values. */
const gaps = (times: readonly number[]) => times.slice(1).map((time, i) => time - times[i]);

/**
 * Runs of `way`'s payload-carrying packets among all payload-carrying packets: a packet of the other way ends a run,
 * and so does a gap of more than 1 s from the run's previous packet. Only runs of 4 or more are bulks.
 */
function bulks(packets: readonly RefPacket[], way: boolean): RefPacket[][] {
  const runs: RefPacket[][] = [];
  let run: RefPacket[] = [];
  for (const p of packets.filter((q) => q.payload > 0)) {
    if (p.fwd !== way) {
      runs.push(run);
      run = [];
    } else if (run.length > 0 && p.ns - run[run.length - 1].ns > 1e9) {
      runs.push(run);
      run = [p];
    } else {
      run.push(p);
    }
  }
  runs.push(run);
  return runs.filter((r) => r.length >= 4);
}

/** The cic set's columns of one session (its packets in time order), as text, by column name. */
export function expectedCic(packets: readonly RefPacket[]): Record<string, string> {
  // A UDP packet's transport header is 8 bytes, a TCP header at least 20 (udpAt, tcpAt).
  const tcp = packets[0].transportHeader !== 8;
  const us = (ns: number) => ns / 1000;
  const times = packets.map((p) => us(p.ns));
  const duration = times[times.length - 1] - times[0];
  const seconds = duration / 1e6;
  const fwd = packets.filter((p) => p.fwd);
  const bwd = packets.filter((p) => !p.fwd);
  const payloads = (list: readonly RefPacket[]) => list.map((p) => p.payload);
  const has = (p: RefPacket, letter: string) => p.flags.includes(letter);
  const count = (list: readonly RefPacket[], letter: string) => list.filter((p) => has(p, letter)).length;
  const flowGaps = gaps(times);
  const fwdGaps = gaps(fwd.map((p) => us(p.ns)));
  const bwdGaps = gaps(bwd.map((p) => us(p.ns)));
  const rate = (value: number) => (seconds > 0 ? value / seconds : 0);
  const columns: [string, number | string][] = [
    ["Flow Duration", duration],
    ["Total Fwd Packets", fwd.length],
    ["Total Backward Packets", bwd.length],
    ["Total Length of Fwd Packets", sum(payloads(fwd))],
    ["Total Length of Bwd Packets", sum(payloads(bwd))],
    ["Fwd Packet Length Max", max(payloads(fwd))],
    ["Fwd Packet Length Min", min(payloads(fwd))],
    ["Fwd Packet Length Mean", mean(payloads(fwd))],
    ["Fwd Packet Length Std", std(payloads(fwd))],
    ["Bwd Packet Length Max", max(payloads(bwd))],
    ["Bwd Packet Length Min", min(payloads(bwd))],
    ["Bwd Packet Length Mean", mean(payloads(bwd))],
    ["Bwd Packet Length Std", std(payloads(bwd))],
    ["Flow Bytes/s", rate(sum(payloads(packets)))],
    ["Flow Packets/s", rate(packets.length)],
    ["Flow IAT Mean", mean(flowGaps)],
    ["Flow IAT Std", std(flowGaps)],
    ["Flow IAT Max", max(flowGaps)],
    ["Flow IAT Min", min(flowGaps)],
    ["Fwd IAT Total", sum(fwdGaps)],
    ["Fwd IAT Mean", mean(fwdGaps)],
    ["Fwd IAT Std", std(fwdGaps)],
    ["Fwd IAT Max", max(fwdGaps)],
    ["Fwd IAT Min", min(fwdGaps)],
    ["Bwd IAT Total", sum(bwdGaps)],
    ["Bwd IAT Mean", mean(bwdGaps)],
    ["Bwd IAT Std", std(bwdGaps)],
    ["Bwd IAT Max", max(bwdGaps)],
    ["Bwd IAT Min", min(bwdGaps)],
    ["Fwd PSH Flags", count(fwd, "P")],
    ["Bwd PSH Flags", count(bwd, "P")],
    ["Fwd URG Flags", count(fwd, "U")],
    ["Bwd URG Flags", count(bwd, "U")],
    ["Fwd Header Length", sum(fwd.map((p) => p.transportHeader))],
    ["Bwd Header Length", sum(bwd.map((p) => p.transportHeader))],
    ["Fwd Packets/s", rate(fwd.length)],
    ["Bwd Packets/s", rate(bwd.length)],
    ["Min Packet Length", min(payloads(packets))],
    ["Max Packet Length", max(payloads(packets))],
    ["Packet Length Mean", mean(payloads(packets))],
    ["Packet Length Std", std(payloads(packets))],
    ["Packet Length Variance", variance(payloads(packets))],
  ];
  for (const [name, letter] of [
    ["FIN", "F"],
    ["SYN", "S"],
    ["RST", "R"],
    ["PSH", "P"],
    ["ACK", "A"],
    ["URG", "U"],
    ["CWE", "C"],
    ["ECE", "E"],
  ]) {
    columns.push([`${name} Flag Count`, count(packets, letter)]);
  }
  columns.push(
    ["Down/Up Ratio", fwd.length > 0 ? bwd.length / fwd.length : 0],
    ["Average Packet Size", mean(payloads(packets))],
    ["Avg Fwd Segment Size", mean(payloads(fwd))],
    ["Avg Bwd Segment Size", mean(payloads(bwd))],
  );
  for (const [way, label] of [
    [true, "Fwd"],
    [false, "Bwd"],
  ] as const) {
    const found = bulks(packets, way);
    const bytes = sum(found.map((run) => sum(payloads(run))));
    const bulkSeconds = sum(found.map((run) => run[run.length - 1].ns - run[0].ns)) / 1e9;
    columns.push(
      [`${label} Avg Bytes/Bulk`, found.length > 0 ? bytes / found.length : 0],
      [`${label} Avg Packets/Bulk`, found.length > 0 ? sum(found.map((run) => run.length)) / found.length : 0],
      [`${label} Avg Bulk Rate`, bulkSeconds > 0 ? bytes / bulkSeconds : 0],
    );
  }
  const subflows = 1 + flowGaps.filter((gap) => gap > 1e6).length;
  columns.push(
    ["Subflow Fwd Packets", fwd.length / subflows],
    ["Subflow Fwd Bytes", sum(payloads(fwd)) / subflows],
    ["Subflow Bwd Packets", bwd.length / subflows],
    ["Subflow Bwd Bytes", sum(payloads(bwd)) / subflows],
    ["Init_Win_bytes_forward", tcp && fwd.length > 0 ? fwd[0].window : -1],
    ["Init_Win_bytes_backward", tcp && bwd.length > 0 ? bwd[0].window : -1],
    ["act_data_pkt_fwd", fwd.filter((p) => p.payload > 0).length],
    ["min_seg_size_forward", min(fwd.map((p) => p.transportHeader))],
  );
  // Periods: the packets cut wherever two consecutive ones are more than 5 s apart.
  const periods: number[][] = [[times[0]]];
  for (let i = 1; i < times.length; i++) {
    if (times[i] - times[i - 1] > 5e6) periods.push([]);
    periods[periods.length - 1].push(times[i]);
  }
  const active = periods.map((period) => period[period.length - 1] - period[0]);
  const idle = flowGaps.filter((gap) => gap > 5e6);
  columns.push(
    ["Active Mean", mean(active)],
    ["Active Std", std(active)],
    ["Active Max", max(active)],
    ["Active Min", min(active)],
    ["Idle Mean", mean(idle)],
    ["Idle Std", std(idle)],
    ["Idle Max", max(idle)],
    ["Idle Min", min(idle)],
  );
  return Object.fromEntries(
    columns.map(([name, value]) => [name, typeof value === "string" ? value : decimalText(value)]),
  );
}

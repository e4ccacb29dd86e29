// Test-only: the nfstream set's columns computed the plain way from a session's packets as written in a test (their
// time text, sender, flags and length), by the definitions of docs/features/nfstream.md: arrays, sums and two-pass
// deviations, never the groups or their running statistics.

/** feature-scenario's base second: a packet at "1.5" is at this second + 1.5. */
const BASE_SEC = 1_700_000_000;

export interface RefPacket {
  /** Seconds since the scenario's base second, as text ("0.000901"). */
  t: string;
  /** Which endpoint sends it: "a" or "b" of its session. */
  from: "a" | "b";
  /** TCP flags as letters (F S R P A U E C), "-" for none. */
  flags: string;
  /** IP length. */
  len: number;
}

export interface RefSession {
  proto: "tcp" | "udp";
  /** Endpoints as the scenario writes them: "10.0.0.1:40000", "[2001:db8::1]:443". */
  a: string;
  b: string;
  packets: RefPacket[];
}

/** The scenario lines of the sessions, all their packets in time order (ties keep the order given). */
export function scenarioLines(sessions: readonly RefSession[]): string {
  const lines = sessions.flatMap((session) =>
    session.packets.map((p) => {
      const [src, dst] = p.from === "a" ? [session.a, session.b] : [session.b, session.a];
      const v6 = session.a.startsWith("[");
      const headers = `${v6 ? 40 : 20}/${session.proto === "tcp" ? 20 : 8}`;
      return { t: Number(p.t), line: `${p.t} ${src} > ${dst} ${session.proto} ${p.flags} ${p.len} ${headers}` };
    }),
  );
  return lines
    .map((entry, i) => ({ ...entry, i }))
    .sort((x, y) => x.t - y.t || x.i - y.i)
    .map((entry) => entry.line)
    .join("\n");
}

/** The packet's time truncated to the millisecond, in ms since the epoch, from its text (no floating point). */
function epochMs(text: string): number {
  const [whole, fraction = ""] = text.split(".");
  return (BASE_SEC + Number(whole)) * 1000 + Number(fraction.padEnd(3, "0").slice(0, 3));
}

/** A real as the CSV writes it: rounded to 6 decimals, no trailing zeros. */
function real(value: number): string {
  return String(Math.round(value * 1e6) / 1e6);
}

function statistics(values: readonly number[]): string[] {
  if (values.length === 0) return ["0", "0", "0", "0"];
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const squares = values.reduce((sum, v) => sum + (v - mean) ** 2, 0);
  const deviation = values.length < 2 ? 0 : Math.sqrt(squares / (values.length - 1));
  return [String(Math.min(...values)), real(mean), real(deviation), String(Math.max(...values))];
}

const gapsOf = (times: readonly number[]) => times.slice(1).map((time, i) => time - times[i]);

/**
 * The set's columns for `session` by name, in order: `splt` packets in the sequences, `frame` when packets count
 * their Ethernet frame's length (IP length + 14).
 */
export function expectedNfstream(session: RefSession, splt = 32, frame = false): [string, string][] {
  const first = session.packets[0];
  // Tracemill's forward side: the first packet's sender, or its receiver when it is a SYN-ACK.
  const synAck = session.proto === "tcp" && first.flags.includes("S") && first.flags.includes("A");
  const forwardSide = synAck ? (first.from === "a" ? "b" : "a") : first.from;
  const packets = session.packets.map((p) => ({
    ms: epochMs(p.t),
    forward: p.from === forwardSide,
    size: p.len + (frame ? 14 : 0),
    flags: p.flags,
  }));
  const ways: [string, typeof packets][] = [
    ["bidirectional", packets],
    ["src2dst", packets.filter((p) => p.forward)],
    ["dst2src", packets.filter((p) => !p.forward)],
  ];
  const columns: [string, string][] = [];
  for (const [way, list] of ways) {
    const values =
      list.length === 0
        ? [0, 0, 0, 0, 0]
        : [
            list[0].ms,
            list[list.length - 1].ms,
            list[list.length - 1].ms - list[0].ms,
            list.length,
            list.reduce((sum, p) => sum + p.size, 0),
          ];
    ["first_seen_ms", "last_seen_ms", "duration_ms", "packets", "bytes"].forEach((name, i) => {
      columns.push([`${way}_${name}`, String(values[i])]);
    });
  }
  for (const [way, list] of ways) {
    const values = statistics(list.map((p) => p.size));
    ["min_ps", "mean_ps", "stddev_ps", "max_ps"].forEach((name, i) => {
      columns.push([`${way}_${name}`, values[i]]);
    });
  }
  for (const [way, list] of ways) {
    const values = statistics(gapsOf(list.map((p) => p.ms)));
    ["min_piat_ms", "mean_piat_ms", "stddev_piat_ms", "max_piat_ms"].forEach((name, i) => {
      columns.push([`${way}_${name}`, values[i]]);
    });
  }
  const letters: [string, string][] = [
    ["syn", "S"],
    ["cwr", "C"],
    ["ece", "E"],
    ["urg", "U"],
    ["ack", "A"],
    ["psh", "P"],
    ["rst", "R"],
    ["fin", "F"],
  ];
  for (const [way, list] of ways) {
    for (const [name, letter] of letters) {
      columns.push([`${way}_${name}_packets`, String(list.filter((p) => p.flags.includes(letter)).length)]);
    }
  }
  const pad = (values: number[]) => [...values, ...new Array(splt).fill(-1)].slice(0, splt);
  const head = packets.slice(0, splt);
  const gaps = [0, ...gapsOf(packets.map((p) => p.ms))].slice(0, head.length);
  const list = (values: number[]) => `"[${pad(values).join(",")}]"`;
  columns.push(["splt_direction", list(head.map((p) => (p.forward ? 0 : 1)))]);
  columns.push(["splt_ps", list(head.map((p) => p.size))]);
  columns.push(["splt_piat_ms", list(gaps)]);
  return columns;
}

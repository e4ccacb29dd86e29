// An IPT output (docs/formats.md, "IPT time series": line k of ipt.txt is data row k of features.csv) opened to find
// sessions by address and port and to read the gaps of chosen ones. Opening reads both files once, keeping where every
// 64th row starts; a search reads on from where it is asked to, for a bounded number of rows, and a series reads only
// its own line and row.
import fs from "node:fs";
import {
  iptGapCount,
  iptGaps,
  matchesSession,
  type SessionKey,
  type SessionQuery,
  sessionKey,
  sessionKeyColumns,
  TracemillError,
} from "@tracemill/core";
import { csvHeader, csvRows, indexRows, LineReader } from "./row-index.js";

export interface IptSession {
  /** The session's data row in the CSV, and line in the IPT file (1-based). */
  row: number;
  session: SessionKey;
  /** Packets of the session: its gaps plus one. */
  packets: number;
}

export interface IptSeries extends IptSession {
  /** The first gaps in seconds, in packet order (negative: ended by the backward side, in a signed run). */
  gaps: number[];
}

export interface FindOptions {
  /** The data row to start at (1-based). */
  from: number;
  /** Sessions to find at most. */
  limit: number;
  /** Sessions of fewer packets are passed over. */
  minPackets: number;
  /** Rows to look at at most: a search through a large output goes on in the next request. */
  scan: number;
}

export interface IptOutput {
  /** Sessions (CSV data rows, IPT lines). */
  readonly sessions: number;
  /** Memory the index holds, for a cache's bound. */
  readonly bytes: number;
  /** Sessions that match, in row order, and the row to go on from (null when the output is searched to its end). */
  find(query: SessionQuery, options: FindOptions): Promise<{ sessions: IptSession[]; nextFrom: number | null }>;
  /** The sessions of these data rows with their first `maxGaps` gaps; a row past the end is left out. */
  series(rows: readonly number[], maxGaps: number): Promise<IptSeries[]>;
}

/** The files of an IPT output; `ipt.label` and `csv.label` name them in messages (never a path of the server). */
export interface IptFiles {
  ipt: { path: string; label: string };
  csv: { path: string; label: string };
}

const bad = (message: string) => new TracemillError("BAD_INPUT", message);

async function indexWhole(file: string, grammar: "csv" | "lines") {
  const handle = await fs.promises.open(file, "r");
  try {
    const { size } = await handle.stat();
    const index = await indexRows(handle, { start: 0, length: size }, grammar);
    return { index, header: grammar === "csv" ? await csvHeader(handle, index) : [] };
  } finally {
    await handle.close();
  }
}

export async function openIptOutput(files: IptFiles): Promise<IptOutput> {
  const lines = (await indexWhole(files.ipt.path, "lines")).index;
  const { index: csv, header } = await indexWhole(files.csv.path, "csv");
  const keyColumns = sessionKeyColumns(header);
  if (keyColumns === null) {
    throw bad(`${files.csv.label} has no session key columns (protocol, ts, srcIP, srcPrt, dstIP, dstPrt)`);
  }
  const sessions = Math.max(0, csv.table.rows - 1);
  if (lines.table.rows !== sessions) {
    throw bad(
      `${files.ipt.label} has ${lines.table.rows} lines and ${files.csv.label} ${sessions} rows: ` +
        "they are not one output (line k of one is row k of the other)",
    );
  }

  /**
   * Both files open, read side by side from data row `from`: `visit` sees each row's session and IPT line (the bytes
   * `line[start, end)`), in order, until it returns false.
   */
  async function eachRow(
    from: number,
    visit: (row: number, session: SessionKey, line: Uint8Array, start: number, end: number) => boolean,
  ): Promise<void> {
    const [iptHandle, csvHandle] = await Promise.all([
      fs.promises.open(files.ipt.path, "r"),
      fs.promises.open(files.csv.path, "r"),
    ]);
    try {
      const ipt = new LineReader(iptHandle, lines, from - 1);
      for await (const batch of csvRows(csvHandle, csv, from, keyColumns as number[])) {
        for (const { row, cells } of batch) {
          while (!ipt.take()) if (!(await ipt.fill())) return;
          if (!visit(row, sessionKey(cells), ipt.bytes, ipt.start, ipt.end)) return;
        }
      }
    } finally {
      await Promise.all([iptHandle.close(), csvHandle.close()]);
    }
  }

  const decoder = new TextDecoder();
  const text = (bytes: Uint8Array, start: number, end: number) => decoder.decode(bytes.subarray(start, end));

  return {
    sessions,
    bytes: lines.table.starts.byteLength + csv.table.starts.byteLength,

    async find(query, options) {
      const from = Math.max(1, options.from);
      const found: IptSession[] = [];
      let next = from;
      await eachRow(from, (row, session, line, start, end) => {
        next = row + 1;
        if (matchesSession(session, query)) {
          const packets = iptGapCount(text(line, start, end)) + 1;
          if (packets >= options.minPackets) found.push({ row, session, packets });
        }
        return found.length < options.limit && next - from < options.scan;
      });
      return { sessions: found, nextFrom: next <= sessions ? next : null };
    },

    async series(wanted, maxGaps) {
      const series: IptSeries[] = [];
      for (const row of [...new Set(wanted)].sort((a, b) => a - b)) {
        if (row < 1 || row > sessions) continue;
        await eachRow(row, (_, session, line, start, end) => {
          const gaps = iptGaps(text(line, start, end), maxGaps);
          if ("bad" in gaps) {
            throw bad(`${files.ipt.label} line ${row}, value ${gaps.bad}: "${gaps.text}" is no number of seconds`);
          }
          series.push({ row, session, packets: gaps.count + 1, gaps: gaps.values });
          return false;
        });
      }
      return series;
    },
  };
}

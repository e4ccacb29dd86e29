// One line of an IPT output (docs/formats.md, "IPT time series") read back: the session's gaps in seconds, comma
// separated, negative for the backward side when the run was signed; an empty line is a one-packet session.

/** A line's gaps: the first `limit` of them as numbers, and how many there are in all. */
export interface IptGaps {
  values: number[];
  count: number;
}

/** Reads `line`; a value that is no number is reported with its 1-based position, so the caller can name it. */
export function iptGaps(line: string, limit: number): IptGaps | { bad: number; text: string } {
  if (line.length === 0) return { values: [], count: 0 };
  const values: number[] = [];
  let count = 0;
  let start = 0;
  for (;;) {
    const comma = line.indexOf(",", start);
    const end = comma < 0 ? line.length : comma;
    count++;
    if (values.length < limit) {
      const text = line.slice(start, end);
      const value = Number(text);
      if (text.length === 0 || !Number.isFinite(value)) return { bad: count, text };
      values.push(value);
    }
    if (comma < 0) return { values, count };
    start = comma + 1;
  }
}

/** How many gaps a line holds, without reading them. */
export function iptGapCount(line: string): number {
  if (line.length === 0) return 0;
  let count = 1;
  for (let at = line.indexOf(","); at >= 0; at = line.indexOf(",", at + 1)) count++;
  return count;
}

// Reads the start of a CSV output: header and rows (quoted fields allowed), dropping a cut-off last line.
export interface Table {
  header: string[];
  rows: string[][];
}

function splitLine(line: string): string[] {
  const cells: string[] = [];
  let cell = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") {
      cells.push(cell);
      cell = "";
    } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** `complete` says whether the text is the whole file; when not, the last (possibly partial) line is dropped. */
export function parseCsv(text: string, complete: boolean): Table {
  const lines = text.split(/\r?\n/);
  if (!complete) lines.pop();
  const nonEmpty = lines.filter((l) => l.length > 0);
  if (nonEmpty.length === 0) return { header: [], rows: [] };
  const header = splitLine(nonEmpty[0]);
  return {
    header,
    rows: nonEmpty
      .slice(1)
      .map(splitLine)
      .filter((r) => r.length === header.length),
  };
}

/** The first column whose name matches one of the candidates, case-insensitively. */
export function findColumn(header: string[], candidates: string[]): number {
  const lower = header.map((h) => h.trim().toLowerCase());
  for (const candidate of candidates) {
    const index = lower.indexOf(candidate.toLowerCase());
    if (index >= 0) return index;
  }
  return -1;
}

const protocolNames: Record<string, string> = { "6": "TCP", "17": "UDP", "1": "ICMP", "58": "ICMPv6" };
export const protocolName = (value: string) => protocolNames[value.trim()] ?? value.trim().toUpperCase();

// The CSV header line (RFC 4180): written once, first, whatever the number of rows.

/** The header line for `columns`, with a line feed; names needing it are quoted. */
export function csvHeaderLine(columns: readonly string[]): string {
  return `${columns.map((name) => (/[",\r\n]/.test(name) ? `"${name.replace(/"/g, '""')}"` : name)).join(",")}\n`;
}

// Writes a capability's summary.json (pretty-printed, with a final line feed) into its output directory.
import fs from "node:fs";
import path from "node:path";

export const SUMMARY_FILE = "summary.json";

export async function writeSummary(outDir: string, summary: Record<string, unknown>): Promise<void> {
  await fs.promises.writeFile(path.join(outDir, SUMMARY_FILE), `${JSON.stringify(summary, null, 2)}\n`);
}

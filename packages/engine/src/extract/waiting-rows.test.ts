// Rows that wait for an earlier session's row: the CSV is the same whether they wait in memory or in the temporary
// file, and the file is gone afterwards. Short idle timeouts make sessions end out of start order in real captures.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { FileRowSpill } from "../output/file-row-spill.js";
import { extractFeatures } from "./extract-features.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/features");
/** The captures with golden feature CSVs. */
const captures = fs
  .readdirSync(path.join(fixtures, "golden"))
  .map((f) => f.replace(/\.csv$/, ""))
  .sort();
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-waiting-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function csv(capture: string, outDir: string, rowMemoryBytes?: number): Promise<string> {
  fs.mkdirSync(outDir);
  await extractFeatures(fixturePath(capture), { outDir, idleTimeout: 0.5, rowMemoryBytes });
  expect(fs.readdirSync(outDir).sort()).toEqual(["features.csv", "summary.json"]);
  return fs.readFileSync(path.join(outDir, "features.csv"), "utf8");
}

describe("rows waiting for an earlier session", () => {
  it("come out the same from the temporary file as from memory", async () => {
    const appends = vi.spyOn(FileRowSpill.prototype, "append");
    let spilledCaptures = 0;
    for (const capture of captures) {
      const before = appends.mock.calls.length;
      const spilled = await csv(capture, path.join(dir, `${capture}-spilled`), 1);
      if (appends.mock.calls.length > before) spilledCaptures++;
      expect(spilled).toBe(await csv(capture, path.join(dir, `${capture}-memory`)));
    }
    appends.mockRestore();
    expect(spilledCaptures).toBeGreaterThanOrEqual(3);
  });
});

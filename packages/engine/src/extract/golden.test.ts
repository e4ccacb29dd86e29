// Golden files: the CSV of each real capture with a golden/<capture>.csv in test/fixtures/features must stay
// byte-identical (the captures are in the captures library, test/fixtures/capture), with the default feature set and
// with each other set alone (golden-sets/<set>/<capture>.csv).
// After an intended change, regenerate with test/fixtures/features/regenerate.mjs and review the diff.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { extractFeatures } from "./extract-features.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/features");
const captures = fs
  .readdirSync(path.join(fixtures, "golden"))
  .map((f) => f.replace(/\.csv$/, ""))
  .sort();

describe("golden feature CSVs", () => {
  it("cover a few real captures", () => {
    expect(captures.length).toBeGreaterThanOrEqual(5);
  });

  const sets = fs.readdirSync(path.join(fixtures, "golden-sets")).sort();
  it("cover every feature set other than the default", () => {
    expect(sets).toEqual(["cic", "nfstream"]);
    for (const set of sets)
      expect(fs.readdirSync(path.join(fixtures, "golden-sets", set)).length).toBe(captures.length);
  });

  for (const set of sets) {
    for (const name of captures) {
      it(`are unchanged for ${name} with --features ${set}`, async () => {
        const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-golden-"));
        await extractFeatures(fixturePath(name), { outDir, features: [set] });
        const actual = fs.readFileSync(path.join(outDir, "features.csv"), "utf8");
        expect(actual).toBe(fs.readFileSync(path.join(fixtures, "golden-sets", set, `${name}.csv`), "utf8"));
        fs.rmSync(outDir, { recursive: true, force: true });
      });
    }
  }

  for (const name of captures) {
    it(`are unchanged for ${name}`, async () => {
      const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-golden-"));
      const { summary } = await extractFeatures(fixturePath(name), { outDir });
      const actual = fs.readFileSync(path.join(outDir, "features.csv"), "utf8");
      const expected = fs.readFileSync(path.join(fixtures, "golden", `${name}.csv`), "utf8");
      expect(actual).toBe(expected);
      expect(summary.complete).toBe(true);
      const { read, decoded, ignored } = summary.packets;
      expect(decoded + Object.values(ignored).reduce((a, b) => a + b, 0)).toBe(read);
    });
  }
});

// Combining parts' outputs: names of the parts' copies, CSVs joined under one header (a different header refused,
// nothing left behind) with the SHA-256 of the joined bytes, the summary's counts added up by hand.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { combineParts } from "./combine-parts.js";
import { combinedSummary } from "./combined-summary.js";
import { partFileName } from "./part-names.js";

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "combine-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

function part(name: string, csv: string, sessions: number) {
  const partDir = fs.mkdtempSync(path.join(dir, "part-"));
  fs.writeFileSync(path.join(partDir, "features.csv"), csv);
  const summary = { options: { features: ["tracemill"] }, complete: true, damage: null, sessions: { total: sessions } };
  fs.writeFileSync(path.join(partDir, "summary.json"), JSON.stringify(summary));
  return {
    capture: name,
    summary,
    outputs: [
      { name: "features.csv", kind: "features-csv" as const, path: path.join(partDir, "features.csv") },
      { name: "summary.json", kind: "summary-json" as const, path: path.join(partDir, "summary.json") },
    ],
  };
}

describe("part file names", () => {
  it("number the parts, drop capture extensions and keep names plain", () => {
    expect(partFileName(0, 3, "monday.pcap", "features.csv")).toBe("01-monday.features.csv");
    expect(partFileName(9, 120, "a b/../c.pcapng.gz", "ipt.txt")).toBe("010-a_b_.._c.ipt.txt");
    expect(partFileName(1, 2, ".pcap", "x.csv")).toBe("02-capture.x.csv");
  });
});

describe("combineParts", () => {
  it("writes one header, then each part's rows in order, and keeps each part's files", async () => {
    const out = fs.mkdtempSync(path.join(dir, "out-"));
    const result = await combineParts([part("a.pcap", "h1,h2\n1,2\n", 1), part("b.pcap", "h1,h2\n3,4\n5,6\n", 2)], {
      outDir: out,
    });
    expect(fs.readFileSync(path.join(out, "features.csv"), "utf8")).toBe("h1,h2\n1,2\n3,4\n5,6\n");
    expect(fs.readFileSync(path.join(out, "02-b.features.csv"), "utf8")).toBe("h1,h2\n3,4\n5,6\n");
    // sha256sum of the joined text above.
    expect(result.digests).toEqual(
      new Map([["features.csv", "9540a37d22e8db617a4a5ec3dd2b2a16b48cffdf74b8625dd7509140e0238662"]]),
    );
    expect(result.outputs.map((o) => o.name).sort()).toEqual(
      [
        "features.csv",
        "summary.json",
        "01-a.features.csv",
        "01-a.summary.json",
        "02-b.features.csv",
        "02-b.summary.json",
      ].sort(),
    );
    const summary = JSON.parse(fs.readFileSync(path.join(out, "summary.json"), "utf8"));
    expect(summary.sessions.total).toBe(3);
    expect(summary.captures).toBe(2);
  });

  it("gives the joined file's SHA-256 across reads of 1 MiB and a skipped header", async () => {
    const out = fs.mkdtempSync(path.join(dir, "out-"));
    const rows = (from: number) => Array.from({ length: 150_000 }, (_, i) => `${from + i},${i % 97}\n`).join("");
    const parts = [part("a.pcap", `h1,h2\n${rows(0)}`, 1), part("b.pcap", `h1,h2\n${rows(1e6)}`, 1)];
    const result = await combineParts(parts, { outDir: out });
    const joined = fs.readFileSync(path.join(out, "features.csv"));
    expect(joined.length).toBeGreaterThan(2 << 20);
    expect(joined.toString()).toBe(`h1,h2\n${rows(0)}${rows(1e6)}`);
    expect(result.digests.get("features.csv")).toBe(crypto.createHash("sha256").update(joined).digest("hex"));
  });

  it("refuses parts whose headers differ and leaves no combined file", async () => {
    const out = fs.mkdtempSync(path.join(dir, "out-"));
    await expect(
      combineParts([part("a.pcap", "h1,h2\n1,2\n", 1), part("b.pcap", "h1,h3\n3,4\n", 1)], { outDir: out }),
    ).rejects.toThrow(/features\.csv: its header differs from the first part's header/);
    expect(fs.readdirSync(out).filter((name) => name.startsWith("features"))).toEqual([]);
  });
});

describe("combinedSummary", () => {
  it("adds counts, keeps settings, lists damaged parts", () => {
    const summary = combinedSummary(
      "9",
      [
        {
          capture: "a",
          files: [],
          summary: { complete: true, damage: null, packets: { read: 5, ignored: { truncated: 1 } }, csv: { rows: 2 } },
        },
        {
          capture: "b",
          files: [],
          summary: {
            complete: false,
            damage: { offset: 10 },
            packets: { read: 7, ignored: { truncated: 0 } },
            images: { flowsPerImage: 16, images: 3 },
            csv: { rows: 4 },
          },
        },
      ],
      "features.csv",
    );
    expect(summary.packets).toEqual({ read: 12, ignored: { truncated: 1 } });
    expect(summary.images).toEqual({ flowsPerImage: 16, images: 3 });
    expect(summary.complete).toBe(false);
    expect(summary.damage).toEqual([{ capture: "b", damage: { offset: 10 } }]);
    expect(summary.rows).toEqual({ name: "features.csv", rows: 6 });
  });
});

// Mutated captures (fixed seed) through the command as a user runs it: `extract` and `info` end with exit 0, or
// exit 1 and one line naming the file; never a stack trace or an internal error, never a hang, and an extract that
// fails leaves either nothing or a CSV whose summary says it is incomplete.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { seededRandom } from "../../../packages/core/src/testing/index.js";
import { fixturePath } from "../../../test/helpers/fixtures.js";
import { runCli } from "./run-cli.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-capture-fuzz-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const seeds = {
  pcap: fs.readFileSync(fixturePath("eternalblue-scan.pcap")),
  pcapng: fs.readFileSync(fixturePath("pcapng_multi-interface.pcapng")),
  erf: fs.readFileSync(fixturePath("erf_5-packets.erf")),
  gzip: zlib.gzipSync(fs.readFileSync(fixturePath("pcap-be-us_pptp.pcap"))),
};

const random = seededRandom(20261129);
const below = (n: number) => Math.floor(random() * n);

/** One of: a few flipped bits, a cut, a 32-bit length-like field overwritten, a run of bytes deleted. */
function mutate(bytes: Buffer): Buffer {
  const out = Buffer.from(bytes);
  switch (below(4)) {
    case 0:
      for (let i = below(4); i >= 0; i--) out[below(out.length)] ^= 1 << below(8);
      return out;
    case 1:
      return out.subarray(0, below(out.length));
    case 2: {
      const at = below(out.length - 4);
      out.writeUInt32LE([0, 0xffffffff, 0x7fffffff, below(70000)][below(4)], at);
      return out;
    }
    default: {
      const at = below(out.length);
      return Buffer.concat([out.subarray(0, at), out.subarray(Math.min(out.length, at + 1 + below(64)))]);
    }
  }
}

/** stderr lines that are not warnings. */
const errorLines = (stderr: string) =>
  stderr.split("\n").filter((line) => line !== "" && !line.startsWith("tracemill: warning:"));

describe("mutated captures through the command", () => {
  const statuses: (number | null)[] = [];
  const cases = Object.entries(seeds).flatMap(([kind, bytes]) =>
    Array.from({ length: 5 }, (_, i) => {
      const name = `${kind}-${i}.${kind === "gzip" ? "pcap.gz" : kind}`;
      fs.writeFileSync(path.join(dir, name), mutate(bytes));
      return name;
    }),
  );

  it.each(cases)("%s", (name) => {
    const file = path.join(dir, name);
    const csv = path.join(dir, `${name}.csv`);
    const summary = path.join(dir, `${name}.summary.json`);
    const extract = runCli(["extract", file, "-o", csv]);
    for (const result of [extract, runCli(["info", file])]) {
      statuses.push(result.status);
      expect(result.status, result.stderr).not.toBeNull();
      expect([0, 1]).toContain(result.status);
      expect(result.stderr).not.toMatch(/internal error|\n\s+at |Error:/);
      const lines = errorLines(result.stderr);
      if (result.status === 0) expect(lines).toEqual([]);
      else {
        expect(lines).toHaveLength(1);
        expect(lines[0]).toContain(name);
      }
    }
    // The extract's outputs: complete on success; on failure none, or a summary that says the CSV is incomplete.
    if (extract.status === 0) {
      expect(JSON.parse(fs.readFileSync(summary, "utf8")).complete).toBe(true);
    } else if (fs.existsSync(csv)) {
      const written = JSON.parse(fs.readFileSync(summary, "utf8"));
      expect(written.complete).toBe(false);
      expect(written.damage.message).toBeTruthy();
    } else {
      expect(fs.existsSync(summary)).toBe(false);
    }
  });

  it("the seed gives both outcomes", () => {
    expect(statuses).toContain(0);
    expect(statuses).toContain(1);
  });
});

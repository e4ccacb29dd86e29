// Mutated captures, plain and gzip-wrapped (fixed seed), through readCapture from files, in random chunk sizes:
// each read resolves or rejects with a one-line TracemillError, and a gzip stream that was cut or altered past its
// header is never reported complete (its CRC-32 and length trailer catch what the deflate data does not).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import { isTracemillError } from "@tracemill/core/errors";
import { afterAll, expect, it } from "vitest";
import { seededRandom } from "../../../core/src/testing/index.js";
import { readCapture } from "./read-capture.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const seeds = [
  "attacks/eternalblue-scan.pcap",
  "formats/pcap-be-us_pptp.pcap",
  "formats/pcap-le-ns_sll_tcp-handshake-nano.pcap",
  "formats/pcapng-be_complex.pcapng",
  "formats/erf_100-packets.erf",
].map((f) => new Uint8Array(fs.readFileSync(path.join(fixtures, f))));
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-fuzz-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

type Change = "none" | "cut" | "flipped" | "header";

it("reads 400 mutated plain and gzip captures to their packets or a one-line error, never a damaged gzip as whole", async () => {
  const rnd = seededRandom(1129);
  const pick = (n: number) => Math.floor(rnd() * n);
  const started = Date.now();
  const seen = { complete: 0, incomplete: 0, rejected: 0 };
  for (let i = 0; i < 400; i++) {
    let plain = seeds[i % seeds.length].slice();
    // The capture itself: as it is, a flipped byte, or cut.
    const inner = pick(3);
    if (inner === 1) plain[pick(plain.length)] ^= 1 << pick(8);
    else if (inner === 2) plain = plain.slice(0, 1 + pick(plain.length - 1));
    const gzipped = rnd() < 0.7;
    let bytes: Uint8Array = gzipped ? zlib.gzipSync(plain, { level: 1 + pick(9) }) : plain;
    let change: Change = "none";
    if (gzipped) {
      const kind = pick(4);
      if (kind === 1) {
        bytes = bytes.slice(0, pick(bytes.length));
        change = "cut";
      } else if (kind === 2) {
        bytes = bytes.slice();
        bytes[10 + pick(bytes.length - 10)] ^= 1 << pick(8);
        change = "flipped";
      } else if (kind === 3) {
        bytes = bytes.slice();
        bytes[pick(10)] ^= 1 << pick(8);
        change = "header";
      }
    }
    const file = path.join(tmp, `input-${i}${gzipped ? ".gz" : ""}`);
    fs.writeFileSync(file, bytes);
    const options = { chunkBytes: [333, 4096, 65536, 1 << 20][pick(4)], readAhead: rnd() < 0.5 };
    const context = `iteration ${i}: ${gzipped ? `gzip, ${change}` : "plain"}, ${JSON.stringify(options)}`;
    try {
      const result = await readCapture(file, () => {}, options);
      if (result.complete) seen.complete++;
      else {
        seen.incomplete++;
        expect(result.damage?.message, context).toMatch(new RegExp(`^${file}: [^\\n]+$`));
      }
      if (change === "cut" || change === "flipped") expect(result.complete, context).toBe(false);
    } catch (error) {
      if (!isTracemillError(error)) throw new Error(`${context}: ${String(error)}`, { cause: error });
      expect(["BAD_INPUT", "DAMAGED_INPUT"], context).toContain(error.code);
      expect(error.message, context).toMatch(new RegExp(`^${file}: [^\\n]+$`));
      seen.rejected++;
    }
    fs.rmSync(file);
  }
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(seen.complete).toBeGreaterThan(40);
  expect(seen.incomplete).toBeGreaterThan(40);
  expect(seen.rejected).toBeGreaterThan(20);
});

// Mutated real captures (fixed seed): readers end with packets or a TracemillError, never hang or throw
// anything else, and never hold more than the input plus one sane record.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";
import { isTracemillError } from "../errors.js";
import { MAX_PACKET_BYTES } from "./damage.js";
import { openPacketSource } from "./sniff.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const seeds = [
  "eternalblue-scan.pcap",
  "pcap-be-us_pptp.pcap",
  "pcapng-be_complex.pcapng",
  "pcapng_multi-interface.pcapng",
  "erf_100-packets.erf",
  "pcapng-suite-le-test202.pcapng",
].map((f) => new Uint8Array(fs.readFileSync(path.join(fixtures, f))));

/** mulberry32: small, fast, reproducible. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function mutate(input: Uint8Array, rnd: () => number): Uint8Array {
  let bytes = input.slice(0, 8 + Math.floor(rnd() * (input.length - 8)) + (rnd() < 0.5 ? input.length : 0));
  const edits = 1 + Math.floor(rnd() * 6);
  for (let e = 0; e < edits; e++) {
    const at = Math.floor(rnd() * bytes.length);
    const kind = rnd();
    if (kind < 0.5) bytes[at] = Math.floor(rnd() * 256);
    else if (kind < 0.7) bytes.set([0xff, 0xff, 0xff, 0x7f].slice(0, bytes.length - at), at);
    else if (kind < 0.85)
      bytes = Uint8Array.from([...bytes.subarray(0, at), ...bytes.subarray(at + 1 + Math.floor(rnd() * 40))]);
    else
      bytes = Uint8Array.from([
        ...bytes.subarray(0, at),
        ...bytes.subarray(at, at + Math.floor(rnd() * 64)),
        ...bytes.subarray(at),
      ]);
  }
  return bytes;
}

it("survives 4000 mutated captures fed in random chunk sizes", () => {
  const rnd = random(20261122);
  const started = Date.now();
  const outcomes = { clean: 0, damaged: 0, rejected: 0 };
  for (let i = 0; i < 4000; i++) {
    const bytes = mutate(seeds[i % seeds.length], rnd);
    const chunk = rnd() < 0.3 ? 1 + Math.floor(rnd() * 16) : bytes.length;
    let packets = 0;
    try {
      const source = openPacketSource(bytes.subarray(0, chunk));
      let at = chunk;
      for (;;) {
        for (let p = source.next(); p !== null; p = source.next()) {
          packets++;
          if (p.capturedLength > Math.min(bytes.length, MAX_PACKET_BYTES) || p.data.length !== p.capturedLength) {
            throw new Error(`iteration ${i}: packet ${p.index} claims ${p.capturedLength} bytes`);
          }
        }
        if (source.done) break;
        if (at >= bytes.length) source.end();
        else source.push(bytes.subarray(at, at + chunk));
        at += chunk;
      }
      expect(packets).toBeLessThanOrEqual(bytes.length / 12);
      outcomes.clean++;
    } catch (error) {
      if (!isTracemillError(error)) throw new Error(`iteration ${i}: ${String(error)}`, { cause: error });
      expect(["BAD_INPUT", "DAMAGED_INPUT"]).toContain(error.code);
      if (error.code === "DAMAGED_INPUT") outcomes.damaged++;
      else outcomes.rejected++;
    }
  }
  expect(Date.now() - started).toBeLessThan(20_000);
  expect(outcomes.damaged).toBeGreaterThan(300);
  expect(outcomes.rejected).toBeGreaterThan(100);
  expect(process.memoryUsage().rss).toBeLessThan(1024 * 1024 * 1024);
});

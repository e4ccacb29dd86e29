// Mutated alert inputs (fixed seeds) through every alert parser: EVE lines (the byte reader and the reference
// parser, which must agree), unified2 files fed in random chunk sizes, classification.config texts. Each ends with a
// result or a one-line TracemillError naming the file and the line or byte; never another error, never a hang.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { decodeUtf8 } from "../capture/utf8.js";
import { isTracemillError } from "../errors.js";
import { eveFieldValues, expectedEveFields } from "../testing/eve-fields.js";
import { concat, seededRandom } from "../testing/index.js";
import { parseClassificationConfig } from "./classification.js";
import { parseEveAlertLine } from "./eve-alert.js";
import { EveAlertReader } from "./eve-alert-scan.js";
import { Unified2Reader } from "./unified2-reader.js";

const fixtures = path.resolve(import.meta.dirname, "../../../../test/fixtures/alerts");
const read = (name: string) => fs.readFileSync(path.join(fixtures, name));
const classificationText = read("classification.config").toString("utf8");
const classifications = parseClassificationConfig(classificationText);

/** No single parse of inputs this small comes near this, even on a busy machine; one that does is a hang. */
const SLOW_MS = 1000;

function pick<T>(items: readonly T[], rnd: () => number): T {
  return items[Math.floor(rnd() * items.length)];
}

/** Byte edits: a random or a JSON-significant byte, a cut, a deletion, a repeated run, a large length word. */
function mutateBytes(input: Uint8Array, rnd: () => number, significant: readonly number[] = []): Uint8Array {
  let bytes: Uint8Array = input.slice();
  const edits = 1 + Math.floor(rnd() * 4);
  for (let e = 0; e < edits && bytes.length > 0; e++) {
    const at = Math.floor(rnd() * bytes.length);
    const kind = rnd();
    if (kind < 0.3) bytes[at] = Math.floor(rnd() * 256);
    else if (kind < 0.5 && significant.length > 0) bytes[at] = pick(significant, rnd);
    else if (kind < 0.6) bytes = bytes.slice(0, at);
    else if (kind < 0.7) bytes.set([0xff, 0xff, 0xff, 0x7f].slice(0, bytes.length - at), at);
    else if (kind < 0.85) bytes = concat(bytes.subarray(0, at), bytes.subarray(at + 1 + Math.floor(rnd() * 40)));
    else bytes = concat(bytes.subarray(0, at), bytes.subarray(at, at + Math.floor(rnd() * 64)), bytes.subarray(at));
  }
  return bytes;
}

/** Values of every JSON type, and the edge values of the members read. */
const values: unknown[] = [
  7,
  -1,
  0,
  1.5,
  1e300,
  2 ** 53 + 2,
  65536,
  256,
  4294967296,
  "",
  "x",
  "TCP",
  "254",
  "10.0.0.1",
  "::1",
  "1.2.3",
  "2024-01-31T12:00:00Z",
  "2024-13-31T12:00:00.000000+0000",
  "AAAA",
  "AA=A",
  null,
  true,
  {},
  [],
  [1],
  { start: 5 },
  { pcap_cnt: "2" },
  { linktype: -1 },
];

/** A member of the event, or of one of its objects, given another value or removed. */
function mutateMember(line: string, rnd: () => number): string {
  const event = JSON.parse(line) as Record<string, unknown>;
  const objects = [event, ...Object.values(event).filter((v): v is Record<string, unknown> => isObject(v))];
  const target = pick(objects, rnd);
  const keys = Object.keys(target);
  if (keys.length === 0) return line;
  const key = pick(keys, rnd);
  if (rnd() < 0.15) delete target[key];
  else target[key] = structuredClone(pick(values, rnd));
  const text = JSON.stringify(event);
  // Spacing JSON allows but Suricata does not write sends the line the slow way.
  return rnd() < 0.2 ? text.replace(/,"/g, ', "') : text;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

type Outcome = { error: string } | { value: unknown };

function outcome(run: () => unknown, prefix: string, iteration: number): Outcome {
  try {
    return { value: run() };
  } catch (error) {
    if (!isTracemillError(error)) throw new Error(`iteration ${iteration}: ${String(error)}`, { cause: error });
    // expect() only on failure: thousands of calls would cost more than the parsing.
    const { code, message } = error;
    if (code !== "BAD_INPUT" || !message.startsWith(prefix) || message.includes("\n")) {
      expect([code, message]).toEqual(["BAD_INPUT", `${prefix}…`]);
    }
    return { error: message };
  }
}

describe("alert parsers on mutated input", () => {
  it("EVE lines: the byte reader and the reference parser agree on 3000 mutated lines, value or error", () => {
    const seeds = ["eve-bug-28.json", "eve-layouts.json"].flatMap((f) => read(f).toString("utf8").trim().split("\n"));
    const significant = [...'{}[]":,\\0123456789.-+eE/ '].map((c) => c.charCodeAt(0));
    const rnd = seededRandom(20261129);
    const reader = new EveAlertReader(classifications);
    const counts = { alerts: 0, other: 0, refused: 0 };
    for (let i = 0; i < 3000; i++) {
      const seed = pick(seeds, rnd);
      const bytes =
        rnd() < 0.5
          ? mutateBytes(new TextEncoder().encode(seed), rnd, significant)
          : new TextEncoder().encode(mutateMember(seed, rnd));
      const text = decodeUtf8(bytes);
      const source = { file: "fuzz.json", line: i + 1 };
      const prefix = `fuzz.json, line ${i + 1}: `;
      const started = performance.now();
      const reference = outcome(() => parseEveAlertLine(text, classifications, source), prefix, i);
      // The line inside a larger buffer, as in a read chunk.
      const padded = new Uint8Array(bytes.length + 4);
      padded.set(bytes, 2);
      padded.set([10, 10], 0);
      const fast = outcome(() => eveFieldValues(reader.read(padded, 2, 2 + bytes.length, source)), prefix, i);
      const took = performance.now() - started;
      if (took >= SLOW_MS) expect(took, text).toBeLessThan(SLOW_MS);
      const wanted = "error" in reference ? reference : { value: expectedEveFields(text, classifications) };
      // Compared as text first: a deep comparison of 3000 packets' bytes costs more than the parsing.
      if (JSON.stringify(fast) !== JSON.stringify(wanted)) expect([text, fast]).toEqual([text, wanted]);
      if ("error" in reference) counts.refused++;
      else if (reference.value) counts.alerts++;
      else counts.other++;
    }
    // The mutations reach every outcome.
    for (const count of Object.values(counts)) expect(count).toBeGreaterThan(100);
  });

  it("unified2: 2000 mutated files fed in random chunk sizes end with records or an error naming the byte", () => {
    const seeds = ["pyidstools_ipv6-alert.unified2", "pyidstools_merged.u2", "pyidstools_multi-record-event.u2"].map(
      (f) => new Uint8Array(read(f)),
    );
    const rnd = seededRandom(1129);
    const counts = { whole: 0, refused: 0 };
    for (let i = 0; i < 2000; i++) {
      const bytes = mutateBytes(pick(seeds, rnd), rnd);
      const chunk = rnd() < 0.3 ? 1 + Math.floor(rnd() * 100) : bytes.length;
      const started = performance.now();
      let records = 0;
      try {
        const reader = new Unified2Reader({ file: "fuzz.u2", onWarning: () => {} });
        for (let at = 0; at < bytes.length; at += chunk) reader.push(bytes.subarray(at, at + chunk), () => records++);
        reader.finish();
        expect(records).toBeLessThanOrEqual(bytes.length / 8);
        counts.whole++;
      } catch (error) {
        if (!isTracemillError(error)) throw new Error(`iteration ${i}: ${String(error)}`, { cause: error });
        const offset = error.context.offset as number;
        expect(error.code).toBe("DAMAGED_INPUT");
        expect(error.message.startsWith("fuzz.u2: "), error.message).toBe(true);
        expect(error.message).toContain(`at byte ${offset}`);
        expect(error.message).not.toContain("\n");
        expect(offset).toBeGreaterThanOrEqual(0);
        expect(offset).toBeLessThan(bytes.length);
        counts.refused++;
      }
      const took = performance.now() - started;
      if (took >= SLOW_MS) expect(took, `iteration ${i}`).toBeLessThan(SLOW_MS);
    }
    expect(counts.whole).toBeGreaterThan(100);
    expect(counts.refused).toBeGreaterThan(100);
  });

  it("classification.config: 1000 mutated texts end with a table or an error naming the line", () => {
    const significant = [..."#,:\n \r0123456789-xX"].map((c) => c.charCodeAt(0));
    const seed = new TextEncoder().encode(classificationText);
    const rnd = seededRandom(29);
    const counts = { read: 0, refused: 0 };
    for (let i = 0; i < 1000; i++) {
      const text = decodeUtf8(mutateBytes(seed, rnd, significant));
      const lines = text.split(/\r?\n/).length;
      const started = performance.now();
      try {
        const table = parseClassificationConfig(text, "fuzz.config");
        table.entries.forEach((entry, index) => {
          expect(entry.id).toBe(index + 1);
          expect(Number.isInteger(entry.priority) && entry.priority >= 0).toBe(true);
        });
        counts.read++;
      } catch (error) {
        if (!isTracemillError(error)) throw new Error(`iteration ${i}: ${String(error)}`, { cause: error });
        const line = error.context.line as number;
        expect(error.message).toBe(
          `fuzz.config: line ${line} is not a comment or "config classification: name,description,priority"`,
        );
        expect(line).toBeGreaterThanOrEqual(1);
        expect(line).toBeLessThanOrEqual(lines);
        counts.refused++;
      }
      const took = performance.now() - started;
      if (took >= SLOW_MS) expect(took, `iteration ${i}`).toBeLessThan(SLOW_MS);
    }
    expect(counts.read).toBeGreaterThan(100);
    expect(counts.refused).toBeGreaterThan(100);
  });
});

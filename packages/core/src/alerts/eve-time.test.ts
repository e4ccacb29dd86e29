// EveTimeReader: timestamps read by position as parseEveTimestamp reads them, across minutes, hours, days and years,
// and refused when malformed after a good one.
import { expect, it } from "vitest";
import { parseEveTimestamp } from "./eve-alert.js";
import { EveTimeReader, type TimeOut } from "./eve-bytes.js";

it("reads each timestamp as parseEveTimestamp does, whatever came before", () => {
  const texts = [
    "2023-11-14T22:13:20.130155+0000",
    "2023-11-14T22:13:59.999999+0000",
    "2023-11-14T22:14:00.000000+0000",
    "2023-11-15T22:14:00.000001+0000",
    "2024-11-15T22:14:07.000001+0000",
    "2024-02-29T23:59:59.500000+0000",
    "2024-03-01T00:00:00.000000+0000",
    "2024-03-01T00:00:01.250000+0200",
    "2024-03-01T00:00:01.x50000+0000",
    "2024-03-01T00:00:02.250000+0000",
    "2024-03-01T00:00:0a.250000+0000",
    "2024-03-01T00:00-02.250000+0000",
    "2024-03-01T00:00:03.25+0000",
    // Years below 100: Date.UTC would take them for 19xx.
    "0050-03-01T00:00:00.000000+0000",
  ];
  const reader = new EveTimeReader();
  // Every order of neighbours: each text after each other one.
  for (const before of texts) {
    for (const text of texts) {
      for (const t of [before, text]) {
        const bytes = new TextEncoder().encode(`"${t}"`);
        const out: TimeOut = { sec: -1, nsec: -1 };
        const ok = reader.read(bytes, 1, bytes.length - 1, out);
        const ts = parseEveTimestamp(t);
        expect([t, ok ? out : undefined]).toEqual([t, ts && { sec: ts.tsSec, nsec: ts.tsNsec }]);
      }
    }
  }
});

it("reads years below 100 as they are written, not as 19xx", () => {
  for (const text of ["0050-03-01T00:00:00.000000+0000", "0099-12-31T23:59:59.5+01:00"]) {
    const expected = Date.parse(text.replace(/\+0000$/, "Z")) / 1000;
    expect([text, parseEveTimestamp(text)?.tsSec]).toEqual([text, Math.floor(expected)]);
  }
});

// summarizeCapture: capinfos-like facts, decoder counts, undecoded link types, exact durations.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PcapWriter } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { isoTime, summarizeCapture } from "./capture-summary.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-summary-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe("summarizeCapture", () => {
  it("summarises a nanosecond pcap: SLL link type, TCP handshake, exact duration", async () => {
    const s = await summarizeCapture(path.join(fixtures, "formats/pcap-le-ns_sll_tcp-handshake-nano.pcap"));
    expect(s).toMatchObject({
      format: "pcap",
      version: "2.4",
      byteOrder: "little-endian",
      packets: 3,
      linkTypes: [{ linkType: 113, name: "Linux cooked (SLL)", packets: 3 }],
      interfaces: [{ index: 0, linkType: 113, resolution: "ns" }],
      first: "2014-12-09T17:16:09.924505488Z",
      tcp: 3,
      udp: 0,
      other: 0,
      undecodedLinkTypes: [],
      complete: true,
    });
    expect(s.duration).toMatch(/^\d+\.\d{9}$/);
  });

  it("names link types the decoder does not know and counts their packets as other", async () => {
    const file = path.join(tmp, "user0.pcap");
    const chunks: Uint8Array[] = [];
    const writer = new PcapWriter((c) => chunks.push(c), { linkType: 147 });
    const data = new Uint8Array(40);
    for (let i = 0; i < 3; i++) {
      const packet = { tsSec: 10 + i, tsNsec: 0, capturedLength: 40, originalLength: 40, linkType: 147 };
      writer.write({ ...packet, interfaceIndex: 0, data, fileOffset: 0, index: i });
    }
    writer.finish();
    fs.writeFileSync(file, Buffer.concat(chunks));
    const s = await summarizeCapture(file);
    expect(s).toMatchObject({ packets: 3, other: 3, duration: "2.000000000" });
    expect(s.undecodedLinkTypes).toEqual([{ linkType: 147, name: "link type 147", packets: 3 }]);
  });

  it("formats times as ISO 8601 with nanoseconds, and falls back to seconds beyond Date's range", () => {
    expect(isoTime({ tsSec: 0, tsNsec: 5 })).toBe("1970-01-01T00:00:00.000000005Z");
    expect(isoTime({ tsSec: 9e12, tsNsec: 1 })).toBe("9000000000000.000000001");
    expect(isoTime(null)).toBeNull();
  });
});

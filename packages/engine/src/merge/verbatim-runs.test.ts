// Verbatim record copying with small chunks: runs cut at chunk ends, records spanning two chunks, a packet
// written from its fields in between, and the result equal to the input byte for byte.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { openPacketSource, type PacketSource } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { openCaptureWriter } from "../capture/index.js";
import { copiesVerbatim, VerbatimRuns } from "./verbatim-runs.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/merge");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-verbatim-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Copies `input` through VerbatimRuns, read in `chunkBytes` chunks; packet `fieldsAt` goes as a plain copy. */
async function copy(input: Buffer, chunkBytes: number, fieldsAt: number): Promise<{ bytes: Buffer; count: number }> {
  const file = path.join(dir, `out-${chunkBytes}.pcap`);
  const header = openPacketSource(input.subarray(0, 24));
  header.end();
  header.next();
  const { interfaces } = header.info;
  expect(copiesVerbatim(header.info, false)).toBe(true);
  const out = await openCaptureWriter(file, {
    format: "pcap",
    linkType: interfaces[0].linkType,
    snaplen: interfaces[0].snaplen,
  });
  const runs = new VerbatimRuns(out);
  let source: PacketSource | null = null;
  for (let at = 0; at < input.length; at += chunkBytes) {
    runs.beforeRead();
    // A fresh buffer per chunk, scribbled over after use: what a reused read buffer would do.
    const chunk = new Uint8Array(input.subarray(at, at + chunkBytes));
    runs.onChunk(chunk);
    if (!source) source = openPacketSource(chunk);
    else source.push(chunk);
    for (let p = source.next(); p; p = source.next()) {
      if (p.index === fieldsAt) {
        const { tsSec, tsNsec, capturedLength, originalLength, linkType, interfaceIndex, fileOffset, index } = p;
        const plain = { tsSec, tsNsec, capturedLength, originalLength, linkType, interfaceIndex, fileOffset, index };
        runs.add({ ...plain, data: p.data.slice() });
      } else runs.add(p);
    }
    runs.beforeRead();
    chunk.fill(0xee);
  }
  source!.end();
  expect(source!.next()).toBeNull();
  runs.flush();
  const count = out.packetCount;
  await out.close();
  return { bytes: fs.readFileSync(file), count };
}

describe("VerbatimRuns", () => {
  const input = fs.readFileSync(path.join(fixtures, "eternalblue-scan.pcap"));
  const packets = (() => {
    let n = 0;
    for (let at = 24; at < input.length; n++) at += 16 + input.readUInt32LE(at + 8);
    return n;
  })();

  it.each([97, 1000, 1 << 20])("copies a pcap byte for byte in %i-byte chunks", async (chunkBytes) => {
    const { bytes, count } = await copy(input, chunkBytes, 3);
    expect(count).toBe(packets);
    expect(bytes.equals(input)).toBe(true);
  });

  it("refuses inputs whose records need rewriting", () => {
    const info = { format: "pcap", byteOrder: "little-endian", interfaces: [{ unitsPerSecond: 1e6 }] };
    expect(copiesVerbatim(info, false)).toBe(true);
    expect(copiesVerbatim(info, true)).toBe(false);
    expect(copiesVerbatim({ ...info, byteOrder: "big-endian" }, false)).toBe(false);
    expect(copiesVerbatim({ ...info, format: "pcapng" }, false)).toBe(false);
  });
});

// Reading entries of an output zip in the browser (stored and deflated), and refusing non-zips.
import { describe, expect, it } from "vitest";
import { readZipEntries } from "./zip-entries.js";

/** A minimal ZIP writer for the test: local headers, central directory, end record (CRCs are not checked). */
async function deflateRaw(data: Uint8Array): Promise<Uint8Array> {
  const stream = new Response(data as BodyInit).body!.pipeThrough(new CompressionStream("deflate-raw"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function makeZip(files: { name: string; data: Uint8Array; deflate: boolean }[]): Promise<ArrayBuffer> {
  const parts: Uint8Array[] = [];
  const central: Uint8Array[] = [];
  let offset = 0;
  for (const file of files) {
    const name = new TextEncoder().encode(file.name);
    const body = file.deflate ? await deflateRaw(file.data) : file.data;
    const local = new DataView(new ArrayBuffer(30));
    local.setUint32(0, 0x04034b50, true);
    local.setUint16(8, file.deflate ? 8 : 0, true);
    local.setUint32(18, body.length, true);
    local.setUint32(22, file.data.length, true);
    local.setUint16(26, name.length, true);
    const entry = new DataView(new ArrayBuffer(46));
    entry.setUint32(0, 0x02014b50, true);
    entry.setUint16(10, file.deflate ? 8 : 0, true);
    entry.setUint32(20, body.length, true);
    entry.setUint32(24, file.data.length, true);
    entry.setUint16(28, name.length, true);
    entry.setUint32(42, offset, true);
    parts.push(new Uint8Array(local.buffer), name, body);
    central.push(new Uint8Array(entry.buffer), name);
    offset += 30 + name.length + body.length;
  }
  const centralSize = central.reduce((n, p) => n + p.length, 0);
  const end = new DataView(new ArrayBuffer(22));
  end.setUint32(0, 0x06054b50, true);
  end.setUint16(8, files.length, true);
  end.setUint16(10, files.length, true);
  end.setUint32(12, centralSize, true);
  end.setUint32(16, offset, true);
  const all = [...parts, ...central, new Uint8Array(end.buffer)];
  const out = new Uint8Array(all.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of all) {
    out.set(p, at);
    at += p.length;
  }
  return out.buffer;
}

describe("readZipEntries", () => {
  const png = (n: number) => new Uint8Array(200).fill(n);
  it("reads stored and deflated entries that match, up to the limit", async () => {
    const zip = await makeZip([
      { name: "images/manifest.csv", data: new TextEncoder().encode("image,row\n"), deflate: true },
      { name: "images/a.png", data: png(1), deflate: false },
      { name: "images/b.png", data: png(2), deflate: true },
      { name: "images/c.png", data: png(3), deflate: true },
    ]);
    const entries = await readZipEntries(zip, (name) => name.endsWith(".png"), 2);
    expect(entries.map((e) => e.name)).toEqual(["images/a.png", "images/b.png"]);
    expect(entries[0].data).toEqual(png(1));
    expect(entries[1].data).toEqual(png(2));
  });
  it("refuses what is not a ZIP", async () => {
    await expect(readZipEntries(new Uint8Array(64).buffer, () => true, 1)).rejects.toThrow("Not a ZIP archive");
  });
});

// The merge capability on real captures, checked against mergecap run on the background and the attack
// capture shifted by editcap -t, and against the provenance record it writes.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { isTracemillError, type Timeline } from "@tracemill/core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fixturePath as fixture } from "../../../../test/helpers/fixtures.js";
import { CaptureCursor } from "../input/index.js";
import { readAttackPacketRanges, readProvenance } from "../provenance/provenance-reader.js";
import { expectTimeline } from "../testing/timeline-check.js";
import { mergeCaptures } from "./merge-captures.js";
import { pull } from "./merge-source.js";
import { formatSeconds, toNs } from "./timestamp.js";

const wikipedia = fixture("wikipedia-browse.pcap");
const eternalblue = fixture("eternalblue-scan.pcap");

interface Packet {
  ns: bigint;
  data: Buffer;
  linkType: number;
  interfaceIndex: number;
  index: number;
}

async function readAll(file: string): Promise<Packet[]> {
  const cursor = await CaptureCursor.open(file, { name: path.basename(file), damage: "throw" });
  const out: Packet[] = [];
  for (let p = await pull(cursor); p; p = cursor.next() ?? (await pull(cursor))) {
    const { linkType, interfaceIndex, index } = p;
    out.push({
      ns: toNs({ sec: p.tsSec, nsec: p.tsNsec }),
      data: Buffer.from(p.data),
      linkType,
      interfaceIndex,
      index,
    });
  }
  await cursor.close();
  return out;
}

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "merge-"));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

/** mergecap's answer: the attacks shifted with editcap -t, merged chronologically (background listed first). */
function reference(background: string, attacks: string, shiftNs: string, format: "pcap" | "pcapng"): string {
  const shifted = path.join(dir, `shifted-${path.basename(attacks)}`);
  execFileSync("editcap", ["-t", formatSeconds(BigInt(shiftNs)), attacks, shifted]);
  const out = path.join(dir, `reference.${format}`);
  execFileSync("mergecap", ["-F", format, "-w", out, background, shifted]);
  return out;
}

async function merge(
  background: string,
  attacks: string,
  options: Parameters<typeof mergeCaptures>[2] extends infer O ? Partial<O> : never,
) {
  const outDir = path.join(dir, "out");
  fs.mkdirSync(outDir, { recursive: true });
  const result = await mergeCaptures(background, attacks, { outDir, ...options });
  const output = path.join(outDir, result.outputs[0].name);
  return { result, output, provenance: path.join(outDir, result.outputs[1].name), outDir };
}

describe("mergeCaptures", () => {
  it("inserts the attacks at the background's midpoint and equals editcap -t + mergecap", async () => {
    const { result, output, provenance } = await merge(wikipedia, eternalblue, {});
    const [merged, bg, atk] = await Promise.all([readAll(output), readAll(wikipedia), readAll(eternalblue)]);
    expect(result.summary.format).toBe("pcap");
    expect(merged.length).toBe(bg.length + atk.length);
    for (let i = 1; i < merged.length; i++) expect(merged[i].ns >= merged[i - 1].ns, `packet ${i}`).toBe(true);

    const midpoint = (bg[0].ns + bg[bg.length - 1].ns) / 2n;
    const shift = BigInt(String((result.summary.placement as { shiftNs: string }).shiftNs));
    expect(atk[0].ns + shift).toBe(midpoint - (midpoint % 1000n));

    const ref = await readAll(reference(wikipedia, eternalblue, shift.toString(), "pcap"));
    expect(merged.map((p) => [p.ns, p.data])).toEqual(ref.map((p) => [p.ns, p.data]));

    // The provenance names every packet's origin: the attack packets, gaps unchanged to the nanosecond.
    const origin: { input: number; original: number }[] = [];
    await readProvenance(provenance, (run) => {
      for (let k = 0; k < run.count; k++) origin.push({ input: run.input, original: run.originalStart + k });
    });
    expect(origin.length).toBe(merged.length);
    merged.forEach((packet, i) => {
      const source = origin[i].input === 0 ? bg : atk;
      expect(packet.data.equals(source[origin[i].original].data), `packet ${i}`).toBe(true);
    });
    const attackOut = merged.filter((_, i) => origin[i].input === 1);
    for (let i = 1; i < atk.length; i++) expect(attackOut[i].ns - attackOut[i - 1].ns).toBe(atk[i].ns - atk[i - 1].ns);
    // The timeline: background and attack packets as the merged capture holds them.
    const times = (input: number) => merged.filter((_, i) => origin[i].input === input).map((p) => Number(p.ns) / 1e9);
    const timeline = result.summary.timeline as Timeline;
    expect(timeline.series.background.length).toBe(100);
    expectTimeline(timeline, "background", times(0));
    expectTimeline(timeline, "attacks", times(1));
    const { ranges, header } = await readAttackPacketRanges(provenance);
    expect(ranges.reduce((n, r) => n + r.end - r.start, 0)).toBe(atk.length);
    expect(header.inputs[1].sha256).toBe(execFileSync("sha256sum", [eternalblue], { encoding: "utf8" }).slice(0, 64));
  });

  it("records input hashes the caller gives as given, and refuses malformed ones before reading", async () => {
    const given = "AB".repeat(32);
    const { result, provenance } = await merge(wikipedia, eternalblue, { inputHashes: { [wikipedia]: given } });
    const { header } = await readProvenance(provenance);
    expect(header.inputs[0].sha256).toBe(given.toLowerCase());
    expect(header.inputs[1].sha256).toBe(execFileSync("sha256sum", [eternalblue], { encoding: "utf8" }).slice(0, 64));
    const inputs = result.summary.inputs as { background: { sha256: string }; attacks: { sha256: string } };
    expect([inputs.background.sha256, inputs.attacks.sha256]).toEqual([
      header.inputs[0].sha256,
      header.inputs[1].sha256,
    ]);
    const error = await merge(path.join(dir, "missing.pcap"), eternalblue, {
      inputHashes: { [eternalblue]: "xyz" },
    }).catch((caught: unknown) => caught);
    expect(isTracemillError(error) && error.code).toBe("BAD_OPTION");
  });

  it.each(["worker", "first-pass"] as const)("records each input's SHA-256 hashed by the %s", async (hashing) => {
    const sha256sum = (file: string) => execFileSync("sha256sum", [file], { encoding: "utf8" }).slice(0, 64);
    const gz = path.join(dir, "wikipedia.pcap.gz");
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(wikipedia)));
    // A gzip input is hashed as stored, by a worker in either case (the first pass sees it inflated).
    for (const background of [wikipedia, gz]) {
      const { provenance, outDir } = await merge(background, eternalblue, { hashing });
      const { header } = await readProvenance(provenance);
      expect(header.inputs.map((input) => input.sha256)).toEqual([sha256sum(background), sha256sum(eternalblue)]);
      fs.rmSync(outDir, { recursive: true });
    }
  });

  it("puts the background first on equal timestamps", async () => {
    // The capture merged with itself at shift 0: every packet ties with its twin (identical bytes, so this
    // cannot tell mergecap's tie order, which is the other way round: see docs/formats.md, "Order").
    const { output, provenance } = await merge(wikipedia, wikipedia, { at: "0" });
    const merged = await readAll(output);
    const ref = await readAll(reference(wikipedia, wikipedia, "0", "pcap"));
    expect(merged.map((p) => [p.ns, p.data])).toEqual(ref.map((p) => [p.ns, p.data]));
    const inputs: number[] = [];
    await readProvenance(provenance, (run) => inputs.push(...Array(run.count).fill(run.input)));
    expect(inputs.slice(0, 4)).toEqual([0, 1, 0, 1]);
  });

  it("writes pcapng with both inputs' interfaces for a pcapng attack capture, equal to mergecap", async () => {
    const dvwa = fixture("dvwa-web-attacks.pcapng");
    const { result, output } = await merge(wikipedia, dvwa, { sequential: true });
    expect(result.summary.format).toBe("pcapng");
    const merged = await readAll(output);
    const bg = await readAll(wikipedia);
    // Sequential: every background packet first, the first attack packet 1 ns after the last background packet.
    expect(merged.slice(0, bg.length).map((p) => p.data)).toEqual(bg.map((p) => p.data));
    expect(merged[bg.length].ns).toBe(bg[bg.length - 1].ns + 1n);
    expect(merged[bg.length].interfaceIndex).toBe(1);
    const shift = (result.summary.placement as { shiftNs: string }).shiftNs;
    const ref = await readAll(reference(wikipedia, dvwa, shift, "pcapng"));
    expect(merged.map((p) => [p.ns, p.data])).toEqual(ref.map((p) => [p.ns, p.data]));
  });

  it("keeps interface names, descriptions, snap lengths and comments in pcapng", async () => {
    const { output } = await merge(
      fixture("pcapng_multi-interface.pcapng"),
      fixture("capture/formats/pcapng-suite/le/test009.pcapng"),
      {},
    );
    const cursor = await CaptureCursor.open(output, { name: "out", damage: "throw" });
    const comments: string[] = [];
    for (let p = await pull(cursor); p; p = cursor.next() ?? (await pull(cursor)))
      comments.push(...cursor.packetComments());
    await cursor.close();
    expect(comments).toEqual(["test009-1", "test009-2"]);
    expect(cursor.info?.comments).toEqual(["test009"]);
    const described = cursor.info?.interfaces.map(({ linkType, snaplen, name, description }) => ({
      linkType,
      snaplen,
      name,
      description,
    }));
    expect(described).toEqual([
      { linkType: 1, snaplen: 262144, name: "eth0", description: undefined },
      {
        linkType: 1,
        snaplen: 262144,
        name: "\\Device\\NPF_{5AE6EDB4-EFF9-46B3-A3C2-EE50C688A9E6}",
        description: "Ethernet 2",
      },
      { linkType: 1, snaplen: 0, name: "eth0", description: undefined },
    ]);
  });

  it("keeps every interface of a multi-section pcapng with its link type and snap length", async () => {
    const sections = fixture("capture/formats/pcapng-suite/le/test202.pcapng");
    const { output, result } = await merge(wikipedia, sections, {});
    expect(result.summary.packets).toBe(136 + 8);
    const cursor = await CaptureCursor.open(output, { name: "out", damage: "throw" });
    const seen = new Set<string>();
    for (let p = await pull(cursor); p; p = cursor.next() ?? (await pull(cursor)))
      seen.add(`${p.interfaceIndex}:${p.linkType}`);
    await cursor.close();
    expect(cursor.info?.interfaces.map((i) => [i.linkType, i.snaplen, i.name])).toEqual([
      [1, 65535, undefined],
      [1, 96, "eth0"],
      [0, 0, "null1"],
      [1, 128, "silly ethernet interface 2"],
      [1, 96, "eth0"],
      [0, 0, "null1"],
    ]);
    expect(cursor.info?.comments).toEqual(["test202 SHB-0", "test202 SHB-1", "test202 SHB-2"]);
    expect(seen.has("0:1")).toBe(true);
    expect(seen.has("2:0")).toBe(true);
  });

  it("leaves nothing behind when cancelled", async () => {
    const controller = new AbortController();
    const outDir = path.join(dir, "out");
    fs.mkdirSync(outDir);
    const run = mergeCaptures(wikipedia, eternalblue, {
      outDir,
      signal: controller.signal,
      onProgress: (progress) => {
        if (progress.stage === "merging") controller.abort();
      },
    });
    await expect(run).rejects.toThrow();
    expect(fs.readdirSync(outDir)).toEqual([]);
  });

  it("gives each link type its own pcapng interface", async () => {
    const sll = fixture("pcap-le-ns_sll_tcp-handshake-nano.pcap");
    const { output, result } = await merge(wikipedia, sll, { atTime: "2011-03-18T19:06:10.000000001Z" });
    const merged = await readAll(output);
    expect(result.summary.format).toBe("pcapng");
    expect(new Set(merged.map((p) => `${p.interfaceIndex}:${p.linkType}`))).toEqual(new Set(["0:1", "1:113"]));
    const first = merged.find((p) => p.linkType === 113)!;
    expect(first.ns).toBe(1_300_475_170_000_000_001n);
  });

  it("places the attacks --at seconds after the background's start", async () => {
    const { output } = await merge(wikipedia, eternalblue, { at: "1.5" });
    const [merged, bg] = await Promise.all([readAll(output), readAll(wikipedia)]);
    const firstAttack = merged.find((p) => !bg.some((b) => b.data.equals(p.data)));
    expect(firstAttack?.ns).toBe(bg[0].ns + 1_500_000_000n);
  });

  it("reads gzip-compressed inputs transparently and hashes the file as stored", async () => {
    const gz = path.join(dir, "wikipedia.pcap.gz");
    fs.writeFileSync(gz, zlib.gzipSync(fs.readFileSync(wikipedia)));
    const plain = await merge(wikipedia, eternalblue, {});
    const plainBytes = fs.readFileSync(plain.output);
    fs.rmSync(path.join(dir, "out"), { recursive: true });
    const compressed = await merge(gz, eternalblue, {});
    expect(fs.readFileSync(compressed.output).equals(plainBytes)).toBe(true);
    const { header } = await readProvenance(compressed.provenance);
    expect(header.inputs[0].sha256).toBe(execFileSync("sha256sum", [gz], { encoding: "utf8" }).slice(0, 64));
  });

  it("stops on a damaged input with the reason and leaves no output behind", async () => {
    const damaged = path.join(dir, "damaged.pcap");
    const bytes = fs.readFileSync(wikipedia);
    fs.writeFileSync(damaged, bytes.subarray(0, Math.floor(bytes.length / 2)));
    const error = await merge(damaged, eternalblue, {}).catch((caught: unknown) => caught);
    expect(isTracemillError(error) && error.code).toBe("DAMAGED_INPUT");
    expect((error as Error).message).toMatch(/^damaged\.pcap: damaged capture at byte \d+/);
    expect(fs.readdirSync(path.join(dir, "out"))).toEqual([]);
  });

  it("merges an out-of-order input in timestamp order and reports it", async () => {
    const disordered = path.join(dir, "disordered.pcap");
    fs.writeFileSync(
      disordered,
      swapRecords(fs.readFileSync(eternalblue), [
        [2, 5],
        [10, 11],
      ]),
    );
    const { output, result, provenance } = await merge(wikipedia, disordered, {});
    const merged = await readAll(output);
    for (let i = 1; i < merged.length; i++) expect(merged[i].ns >= merged[i - 1].ns, `packet ${i}`).toBe(true);
    expect((result.summary.outOfOrder as { attacks: number }).attacks).toBeGreaterThan(0);
    const originals: number[] = [];
    await readProvenance(provenance, (run) => {
      if (run.input === 1) for (let k = 0; k < run.count; k++) originals.push(run.originalStart + k);
    });
    expect(originals.slice(0, 12)).toEqual([0, 1, 5, 3, 4, 2, 6, 7, 8, 9, 11, 10]);
  });
});

/** A copy of a little-endian pcap with the given records (0-based) swapped pairwise. */
function swapRecords(file: Buffer, pairs: [number, number][]): Buffer {
  const records: Buffer[] = [];
  for (let at = 24; at < file.length; ) {
    const length = 16 + file.readUInt32LE(at + 8);
    records.push(file.subarray(at, at + length));
    at += length;
  }
  for (const [a, b] of pairs) [records[a], records[b]] = [records[b], records[a]];
  return Buffer.concat([file.subarray(0, 24), ...records]);
}

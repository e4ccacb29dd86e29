import type { CapturedPacket } from "@tracemill/core";
import { describe, expect, it } from "vitest";
import { InOrderSource, LatePackets } from "./late-packets.js";
import { mergeOrdered } from "./merge-loop.js";
import { type MergeSource, pull } from "./merge-source.js";
import { fromNs, toNs } from "./timestamp.js";

/** An in-memory source handing out packets in batches of `batch`, reusing one record like the real readers. */
function memorySource(timesNs: bigint[], batch = 3): MergeSource {
  let available = 0;
  let position = 0;
  const record: CapturedPacket = {
    tsSec: 0,
    tsNsec: 0,
    capturedLength: 1,
    originalLength: 1,
    linkType: 1,
    interfaceIndex: 0,
    data: new Uint8Array(1),
    fileOffset: 0,
    index: 0,
  };
  return {
    next() {
      if (position >= available) return null;
      const { sec, nsec } = fromNs(timesNs[position]);
      Object.assign(record, { tsSec: sec, tsNsec: nsec, index: position, fileOffset: position * 100 });
      record.data = Uint8Array.of(position & 0xff);
      position++;
      return record;
    },
    async fill() {
      if (available >= timesNs.length) return false;
      available = Math.min(timesNs.length, available + batch);
      return true;
    },
    packetComments: () => [],
  };
}

async function run(background: MergeSource, attacks: MergeSource, shiftNs: bigint) {
  const out: { input: number; index: number; ns: bigint; byte: number }[] = [];
  await mergeOrdered(background, attacks, fromNs(shiftNs), (packet, input) => {
    out.push({
      input,
      index: packet.index,
      ns: toNs({ sec: packet.tsSec, nsec: packet.tsNsec }),
      byte: packet.data[0],
    });
  });
  return out;
}

describe("mergeOrdered", () => {
  it("interleaves by timestamp, shifts the attacks exactly and puts the background first on ties", async () => {
    const background = [10n, 20n, 30n, 40n, 1_000_000_050n];
    const attacks = [0n, 5n, 999_999_990n];
    const out = await run(memorySource(background), memorySource(attacks, 1), 20n);
    expect(out.map((p) => `${p.input}:${p.index}@${p.ns}`)).toEqual([
      "0:0@10",
      "0:1@20",
      "1:0@20",
      "1:1@25",
      "0:2@30",
      "0:3@40",
      "1:2@1000000010",
      "0:4@1000000050",
    ]);
  });

  it("handles negative shifts across second boundaries and empty inputs", async () => {
    const out = await run(memorySource([]), memorySource([1_000_000_000n, 2_500_000_001n]), -1_000_000_001n);
    expect(out.map((p) => p.ns)).toEqual([-1n, 1_500_000_000n]);
    expect(await run(memorySource([5n]), memorySource([]), 0n)).toHaveLength(1);
  });

  it("stops when the signal aborts", async () => {
    const many = Array.from({ length: 200_000 }, (_, i) => BigInt(i));
    const controller = new AbortController();
    controller.abort();
    await expect(
      mergeOrdered(memorySource(many, 1000), memorySource([]), { sec: 0, nsec: 0 }, () => {}, {
        signal: controller.signal,
      }),
    ).rejects.toThrow();
  });
});

describe("InOrderSource", () => {
  /** What the first pass does: hold every packet earlier than one before it. */
  async function lateOf(times: bigint[]) {
    const late = new LatePackets(1000, "x.pcap");
    const indices: number[] = [];
    const source = memorySource(times, 2);
    let max = -1n;
    for (let p = await pull(source); p; p = source.next() ?? (await pull(source))) {
      const ns = toNs({ sec: p.tsSec, nsec: p.tsNsec });
      if (ns < max) {
        late.hold(p, [`late ${p.index}`]);
        indices.push(p.index);
      } else max = ns;
    }
    return { late: late.sorted(), indices };
  }

  it("puts late packets back in timestamp order, keeping file order on ties and their own bytes", async () => {
    const times = [10n, 30n, 20n, 30n, 25n, 60n, 40n, 70n, 70n, 65n, 5n];
    const { late, indices } = await lateOf(times);
    expect(indices).toEqual([2, 4, 6, 9, 10]);
    const source = new InOrderSource(memorySource(times, 2), late, indices);
    const comments: string[][] = [];
    const out: { index: number; ns: bigint; byte: number }[] = [];
    await mergeOrdered(source, memorySource([]), { sec: 0, nsec: 0 }, (packet, _input, from) => {
      out.push({ index: packet.index, ns: toNs({ sec: packet.tsSec, nsec: packet.tsNsec }), byte: packet.data[0] });
      comments.push(from.packetComments());
    });
    expect(out.map((p) => p.ns)).toEqual([5n, 10n, 20n, 25n, 30n, 30n, 40n, 60n, 65n, 70n, 70n]);
    expect(out.map((p) => p.index)).toEqual([10, 0, 2, 4, 1, 3, 6, 5, 9, 7, 8]);
    expect(out.map((p) => p.byte)).toEqual([10, 0, 2, 4, 1, 3, 6, 5, 9, 7, 8]);
    expect(comments[0]).toEqual(["late 10"]);
    expect(comments[1]).toEqual([]);
  });

  it("refuses an input whose late packets exceed the memory bound", async () => {
    const times = [100n, ...Array.from({ length: 50 }, (_, i) => BigInt(i))];
    await expect(lateOf(times)).rejects.toThrow(/x.pcap is too far out of timestamp order/);
  });
});

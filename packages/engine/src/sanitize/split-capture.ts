// One pass over the capture: every packet goes to the attack or the clean capture, in input order, bytes and
// timestamps untouched. Output format follows the input: pcap stays pcap (same link type, µs or ns), pcapng and
// ERF become pcapng (interfaces, names and comments kept).
import fs from "node:fs";
import path from "node:path";
import {
  type CapturedPacket,
  type CaptureInfo,
  PacketDecoder,
  PcapngWriter,
  PcapWriter,
  TracemillError,
} from "@tracemill/core";
import type { OutputFile } from "../capability.js";
import type { AttackSessions } from "./attack-sessions.js";
import { forEachPacket } from "./packet-stream.js";

export interface SplitOutput {
  name: string;
  packets: number;
}

export interface SplitResult {
  format: "pcap" | "pcapng";
  packets: number;
  clean: SplitOutput;
  attacks: SplitOutput;
  outputs: OutputFile[];
  /** For each packet of the clean capture, its 0-based index in the input. */
  cleanIndex: Uint32Array;
  /** Where reading stopped when the capture is damaged part-way (the packets before it were split). */
  damage?: { offset: number; message: string };
}

export interface SplitOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

interface Side {
  file: fs.WriteStream;
  writer: { write(packet: CapturedPacket, comments?: readonly string[]): void; finish(): void } | undefined;
  packets: number;
}

export async function splitCapture(
  input: string,
  attacks: AttackSessions,
  outDir: string,
  options: SplitOptions = {},
): Promise<SplitResult> {
  const decoder = new PacketDecoder();
  let format: "pcap" | "pcapng" | undefined;
  let clean: Side | undefined;
  let attack: Side | undefined;
  let cleanIndex = new Uint32Array(1024);
  const open = (info: CaptureInfo): void => {
    format = info.format === "pcap" ? "pcap" : "pcapng";
    clean = side(path.join(outDir, `clean.${format}`));
    attack = side(path.join(outDir, `attacks.${format}`));
  };
  const total = await forEachPacket(input, options, (packet, source) => {
    if (!clean || !attack) open(source.info);
    const d = decoder.decode(packet);
    const tsUs = packet.tsSec * 1_000_000 + Math.floor(packet.tsNsec / 1000);
    const isAttack = !attacks.empty && attacks.isAttack(d, packet.index, tsUs);
    const target = (isAttack ? attack : clean) as Side;
    if (!target.writer) target.writer = createWriter(source.info, target.file);
    target.writer.write(packet, source.packetComments());
    target.packets++;
    if (!isAttack) {
      const at = (clean as Side).packets - 1;
      if (at >= cleanIndex.length) {
        const grown = new Uint32Array(cleanIndex.length * 2);
        grown.set(cleanIndex);
        cleanIndex = grown;
      }
      cleanIndex[at] = packet.index;
    }
    if ((clean as Side).file.writableNeedDrain) return drained((clean as Side).file);
    if ((attack as Side).file.writableNeedDrain) return drained((attack as Side).file);
    return undefined;
  });
  if (!clean || !attack || !format) {
    throw new TracemillError("BAD_INPUT", `${input} holds no packet: nothing to sanitize`, { file: input });
  }
  await Promise.all([close(clean, total.info), close(attack, total.info)]);
  return {
    format,
    packets: total.packets,
    clean: { name: `clean.${format}`, packets: clean.packets },
    attacks: { name: `attacks.${format}`, packets: attack.packets },
    outputs: [
      { name: `clean.${format}`, kind: "clean-pcap" },
      { name: `attacks.${format}`, kind: "attacks-pcap" },
    ],
    cleanIndex: cleanIndex.subarray(0, clean.packets),
    ...(total.damage && { damage: { offset: total.damage.offset, message: total.damage.message } }),
  };
}

function side(file: string): Side {
  return { file: fs.createWriteStream(file), writer: undefined, packets: 0 };
}

function createWriter(info: CaptureInfo, file: fs.WriteStream): NonNullable<Side["writer"]> {
  const sink = (chunk: Uint8Array) => {
    file.write(chunk);
  };
  const first = info.interfaces[0];
  if (info.format === "pcap") {
    return new PcapWriter(sink, {
      linkType: first?.linkType,
      snaplen: first?.snaplen || undefined,
      nanosecond: (first?.unitsPerSecond ?? 1e6) > 1e6,
    });
  }
  const section = info.sections[0];
  return new PcapngWriter(sink, {
    interfaces: info.interfaces.map((i) => ({
      linkType: i.linkType,
      snaplen: i.snaplen || undefined,
      name: i.name,
      description: i.description,
      tsresol: i.unitsPerSecond > 1e6 || !Number.isInteger(Math.log10(i.unitsPerSecond)) ? 9 : 6,
    })),
    hardware: section?.hardware,
    os: section?.os,
    application: section?.application,
    comments: section?.comments,
  });
}

/** Finishes a side; one that got no packet still becomes a valid, empty capture of the input's kind. */
async function close(s: Side, info: CaptureInfo): Promise<void> {
  s.writer ??= createWriter(info, s.file);
  s.writer.finish();
  await new Promise<void>((resolve, reject) => {
    s.file.once("error", reject);
    s.file.end(() => resolve());
  });
}

function drained(file: fs.WriteStream): Promise<void> {
  return new Promise((resolve) => file.once("drain", () => resolve()));
}

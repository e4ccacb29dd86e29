// One pass over the capture: every packet goes to the attack or the clean capture, in input order, bytes and
// timestamps untouched. Output format follows the input: pcap stays pcap (same link type, µs or ns), pcapng and
// ERF become pcapng (interfaces, names and comments kept).
import path from "node:path";
import {
  type CapturedPacket,
  type CaptureInfo,
  type CaptureWarning,
  PacketDecoder,
  PacketRecord,
  TimeHistogram,
  TracemillError,
} from "@tracemill/core";
import type { OutputFile } from "../capability.js";
import { type CaptureFileWriter, type CaptureWriterOptions, openCaptureWriter } from "../output/index.js";
import type { AttackSessions } from "./attack-sessions.js";
import { forEachPacket, type PacketOrigin } from "./packet-stream.js";

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
  /** What the reader read past without stopping (carried timestamps); empty when nothing. */
  warnings: CaptureWarning[];
  /** Each side's packets over time, for the summary's timeline. */
  times: { clean: TimeHistogram; attacks: TimeHistogram };
}

export interface SplitOptions {
  onProgress?: (fraction: number) => void;
  signal?: AbortSignal;
}

const pcapRecordHeader = 16;
const ETHERNET = 1;

interface Side {
  file: string;
  /** Opened at the side's first packet (a pcapng writer declares the interfaces known by then), or at the end. */
  writer: CaptureFileWriter | undefined;
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
  const cleanTimes = new TimeHistogram();
  const attackTimes = new TimeHistogram();
  const open = (info: CaptureInfo): void => {
    format = info.format === "pcap" ? "pcap" : "pcapng";
    clean = side(path.join(outDir, `clean.${format}`));
    attack = side(path.join(outDir, `attacks.${format}`));
  };
  // Little-endian pcap records are copied as they are, consecutive records of one side in one piece: PcapWriter
  // would write the same bytes field by field.
  let verbatim = false;
  // No run: a side of no file rather than undefined, so the per-packet comparison always meets an object (one that
  // met undefined first would be compiled again).
  const noRun = side("");
  let runSide = noRun;
  let runBytes: Uint8Array = new Uint8Array(0);
  let runStart = 0;
  let runEnd = 0;
  let runCount = 0;
  const flushRun = (): Promise<void> | undefined => {
    const writer = runSide.writer;
    runSide = noRun;
    if (!writer) return undefined;
    return writer.writeRecords(runBytes, runStart, runEnd, runCount) ? undefined : writer.drain();
  };
  const place = (target: Side, packet: CapturedPacket, source: PacketOrigin): Promise<void> | undefined => {
    const writer = target.writer as CaptureFileWriter;
    if (verbatim && packet instanceof PacketRecord) {
      const from = packet.offset - pcapRecordHeader;
      const to = packet.offset + packet.capturedLength;
      if (runSide === target && runBytes === packet.buffer && runEnd === from) {
        runEnd = to;
        runCount++;
        return undefined;
      }
      const wait = flushRun();
      runSide = target;
      runBytes = packet.buffer;
      runStart = from;
      runEnd = to;
      runCount = 1;
      return wait;
    }
    return writer.write(packet, source.packetComments()) ? undefined : writer.drain();
  };
  // Apart from the per-packet callback: a closure there would make each call allocate a context for its captures.
  const openThenPlace = (target: Side, packet: CapturedPacket, source: PacketOrigin): Promise<void> =>
    openWriter(target, source.info).then(() => place(target, packet, source));
  let total: Awaited<ReturnType<typeof forEachPacket>>;
  try {
    total = await forEachPacket(
      input,
      options,
      (packet, source) => {
        if (!clean || !attack) {
          open(source.info);
          verbatim = source.info.format === "pcap" && source.info.byteOrder === "little-endian";
        }
        let isAttack = false;
        if (!attacks.empty) {
          const tsUs = packet.tsSec * 1_000_000 + Math.floor(packet.tsNsec / 1000);
          const quick =
            packet instanceof PacketRecord && packet.linkType === ETHERNET
              ? attacks.isAttackEthernetIpv4(packet.buffer, packet.offset, packet.capturedLength, packet.index, tsUs)
              : undefined;
          isAttack = quick ?? attacks.isAttack(decoder.decode(packet), packet.index, tsUs);
        }
        const target = (isAttack ? attack : clean) as Side;
        (isAttack ? attackTimes : cleanTimes).add(packet.tsSec, packet.tsNsec);
        if (!isAttack) {
          const at = (clean as Side).packets;
          if (at >= cleanIndex.length) {
            const grown = new Uint32Array(cleanIndex.length * 2);
            grown.set(cleanIndex);
            cleanIndex = grown;
          }
          cleanIndex[at] = packet.index;
        }
        target.packets++;
        // The packet stays valid while its callback's promise runs: the source waits for it.
        if (!target.writer) return openThenPlace(target, packet, source);
        return place(target, packet, source);
      },
      flushRun,
    );
    // A capture damaged part-way ends without a last afterChunk: its last run is still pending.
    await flushRun();
    if (!clean || !attack || !format) {
      throw new TracemillError("BAD_INPUT", `${input} holds no packet: nothing to sanitize`, { file: input });
    }
    for (const s of [clean, attack]) await (s.writer ?? (await openWriter(s, total.info))).close();
  } catch (error) {
    await Promise.all([clean?.writer?.abort(), attack?.writer?.abort()]);
    throw error;
  }
  return {
    format,
    packets: total.packets,
    clean: { name: `clean.${format}`, packets: (clean as Side).packets },
    attacks: { name: `attacks.${format}`, packets: (attack as Side).packets },
    outputs: [
      { name: `clean.${format}`, kind: "clean-pcap" },
      { name: `attacks.${format}`, kind: "attacks-pcap" },
    ],
    cleanIndex: cleanIndex.subarray(0, (clean as Side).packets),
    ...(total.damage && { damage: { offset: total.damage.offset, message: total.damage.message } }),
    warnings: total.info.warnings,
    times: { clean: cleanTimes, attacks: attackTimes },
  };
}

function side(file: string): Side {
  return { file, writer: undefined, packets: 0 };
}

async function openWriter(s: Side, info: CaptureInfo): Promise<CaptureFileWriter> {
  s.writer = await openCaptureWriter(s.file, writerOptions(info));
  return s.writer;
}

/**
 * Output chunks of 1 MiB, at most 4 MiB waiting per file: every megabyte a process touches first costs page faults
 * (the writer's defaults, 4 MiB chunks and 16 MiB waiting, held about 40 MiB for the two outputs).
 */
const tuning = { batchBytes: 1024 * 1024, highWaterBytes: 4 * 1024 * 1024 };

function writerOptions(info: CaptureInfo): CaptureWriterOptions {
  const first = info.interfaces[0];
  if (info.format === "pcap") {
    return {
      ...tuning,
      format: "pcap",
      linkType: first?.linkType,
      snaplen: first?.snaplen || undefined,
      nanosecond: (first?.unitsPerSecond ?? 1e6) > 1e6,
    };
  }
  const section = info.sections[0];
  return {
    ...tuning,
    format: "pcapng",
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
  };
}

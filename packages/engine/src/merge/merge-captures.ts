// The merge capability: background and attack captures become one capture in timestamp order, the attacks
// shifted to the chosen point and optionally readdressed, with a provenance record beside it. Pipeline:
// scan both inputs → plan the output → place the attacks → merge the two streams → commit the files.
import fs from "node:fs";
import path from "node:path";
import {
  AddressMap,
  type AddressMapping,
  AddressRemapper,
  type CapturedPacket,
  type ChecksumMode,
  PacketDecoder,
  TracemillError,
} from "@tracemill/core";
import type { CapabilityResult, RunOptions } from "../capability.js";
import { type CaptureFileWriter, CaptureInput, openCaptureWriter } from "../capture/index.js";
import { FileCursor } from "./file-cursor.js";
import { InOrderSource } from "./late-packets.js";
import { mergeOrdered } from "./merge-loop.js";
import type { MergeSource } from "./merge-source.js";
import { planOutput, writerOptions } from "./output-plan.js";
import { type PlacementOptions, parsePlacement, placeAttacks } from "./placement.js";
import { PROVENANCE_FORMAT, PROVENANCE_VERSION, type ProvenanceHeader, type ProvenanceInput } from "./provenance.js";
import { ProvenanceWriter } from "./provenance-writer.js";
import { copiesVerbatim, mergeRawBackground } from "./raw-background-merge.js";
import { type CaptureScan, scanCapture } from "./scan.js";
import { formatIsoTime, formatSeconds, fromNs, toNs } from "./timestamp.js";

export interface MergeOptions extends PlacementOptions {
  /** File name of the merged capture in outDir; default "merged.pcap" or "merged.pcapng" by the output format. */
  output?: string;
  /** Address rewrites applied to the attack packets. */
  mappings?: AddressMapping[];
  /** How checksums are fixed after a rewrite (default "adjust": incremental). */
  checksums?: ChecksumMode;
  /** Bytes of late (out-of-order) packets an input may have, held in memory (default 256 MiB). */
  maxReorderBytes?: number;
}

const DEFAULT_MAX_REORDER_BYTES = 256 * 1024 * 1024;
const MAX_PCAP_SECONDS = 2 ** 32 - 1;
const NO_COMMENTS: readonly string[] = [];

export async function mergeCaptures(
  background: string,
  attacks: string,
  options: MergeOptions & RunOptions,
): Promise<CapabilityResult> {
  const { outDir, onProgress, signal } = options;
  // Options are checked before any input is read: a typo should not cost a pass over gigabytes.
  const map = new AddressMap(options.mappings ?? []);
  const placementOptions = parsePlacement(options);
  const replacesInput = (name: string) =>
    [background, attacks].some((input) => path.resolve(input) === path.resolve(outDir, name));
  const refuseOutput = (name: string) =>
    new TracemillError("BAD_OPTION", `the output ${name} would replace an input`, { file: name });
  if (options.output && replacesInput(options.output)) throw refuseOutput(options.output);
  const totalBytes = fileSize(background) + fileSize(attacks);
  const progress = (stage: string, percent: number) =>
    onProgress?.({ percent: Math.min(99, Math.floor(percent)), stage });

  progress("scanning inputs", 0);
  const maxLateBytes = options.maxReorderBytes ?? DEFAULT_MAX_REORDER_BYTES;
  let scanned = [0, 0];
  const scanProgress = (which: 0 | 1) => (bytes: number) => {
    scanned = which === 0 ? [bytes, scanned[1]] : [scanned[0], bytes];
    progress("scanning inputs", (50 * (scanned[0] + scanned[1])) / Math.max(1, totalBytes));
  };
  // Both first passes at once: their reads overlap. When one fails, the other stops too.
  const scanStop = new AbortController();
  const scanSignal = signal ? AbortSignal.any([signal, scanStop.signal]) : scanStop.signal;
  const [bg, atk] = await Promise.all([
    scanCapture(background, path.basename(background), maxLateBytes, scanSignal, scanProgress(0)),
    scanCapture(attacks, path.basename(attacks), maxLateBytes, scanSignal, scanProgress(1)),
  ]).catch((error: unknown) => {
    scanStop.abort();
    throw error;
  });
  const plan = planOutput(bg, atk);
  const placement = placeAttacks(bg, atk, placementOptions, plan.attackStepNs);
  checkRepresentable(atk, placement.shiftNs, plan.format);

  const outputName = options.output ?? `merged.${plan.format}`;
  if (replacesInput(outputName)) throw refuseOutput(outputName);
  const stem = outputName.replace(/\.(pcapng|pcap|cap)$/i, "");
  const provenanceName = `${stem}.provenance.jsonl`;
  const summaryName = `${stem}.summary.json`;
  const header: ProvenanceHeader = {
    format: PROVENANCE_FORMAT,
    version: PROVENANCE_VERSION,
    output: { file: outputName, format: plan.format },
    inputs: [provenanceInput(0, bg), provenanceInput(1, atk)],
    shiftNs: placement.shiftNs.toString(),
    insertion: {
      mode: placement.mode,
      firstAttackPacketAt: placement.firstAttackPacketNs === null ? null : formatIsoTime(placement.firstAttackPacketNs),
    },
    mappings: [...map.mappings],
    tieOrder: "background-first",
  };

  const inputs: { close(): Promise<void> }[] = [];
  let capture: CaptureFileWriter | undefined;
  let provenance: ProvenanceWriter | undefined;
  const remapper = map.size > 0 ? new AddressRemapper(map, options.checksums ?? "adjust") : null;
  const decoder = new PacketDecoder();
  const shift = fromNs(placement.shiftNs);
  const totalPackets = bg.packets + atk.packets;
  let written = 0;
  try {
    // pcap → pcap with the background's records already in the output's layout: they are copied as bytes.
    const raw = plan.format === "pcap" && copiesVerbatim(bg.info, plan.nanosecond);
    const bgInput = raw ? await CaptureInput.open(background) : null;
    if (bgInput) inputs.push(bgInput);
    const bgCursor = raw ? null : await FileCursor.open(background, bg.name);
    if (bgCursor) inputs.push(bgCursor);
    const atkCursor = await FileCursor.open(attacks, atk.name);
    inputs.push(atkCursor);
    const out = await openCaptureWriter(path.join(outDir, outputName), writerOptions(plan, bg, atk));
    capture = out;
    const record = new ProvenanceWriter(path.join(outDir, provenanceName), header);
    provenance = record;
    const ordered = (cursor: FileCursor, scan: CaptureScan): MergeSource =>
      scan.late.length === 0 ? cursor : new InOrderSource(cursor, scan.late, scan.lateIndices);
    const interfaceOffset = plan.attackInterfaceOffset;
    const keepComments = plan.format === "pcapng";
    let mustDrain = false;
    const sink = (packet: CapturedPacket, input: 0 | 1, source: MergeSource) => {
      const index = packet.index;
      if (input === 1) {
        packet.interfaceIndex += interfaceOffset;
        if (remapper) remapper.remap(packet.data, decoder.decode(packet));
      }
      if (!out.write(packet, keepComments ? source.packetComments() : NO_COMMENTS)) mustDrain = true;
      record.add(input, index);
      if ((++written & 0xffff) === 0) progress("merging", 50 + (50 * written) / Math.max(1, totalPackets));
    };
    progress("merging", 50);
    const pace = () => {
      if (!mustDrain) return undefined;
      mustDrain = false;
      return out.drain();
    };
    if (bgInput) {
      written = await mergeRawBackground(bgInput, bg, ordered(atkCursor, atk), shift, {
        out,
        record,
        prepareAttack: (packet) => {
          if (remapper) remapper.remap(packet.data, decoder.decode(packet));
        },
        onProgress: (count) => progress("merging", 50 + (50 * count) / Math.max(1, totalPackets)),
        signal,
      });
    } else await mergeOrdered(ordered(bgCursor!, bg), ordered(atkCursor, atk), shift, sink, { signal, pace });
    // A cancel that came during the last stretch still wins: nothing is committed after it.
    signal?.throwIfAborted();
    record.finish();
    await out.close();
  } catch (error) {
    await capture?.abort();
    provenance?.abort();
    throw error;
  } finally {
    await Promise.all(inputs.map((input) => input.close()));
  }

  const summary = {
    output: outputName,
    format: plan.format,
    formatReason: plan.reason,
    packets: written,
    inputs: { background: describe(bg), attacks: describe(atk) },
    placement: {
      mode: placement.mode,
      shiftNs: placement.shiftNs.toString(),
      shiftSeconds: formatSeconds(placement.shiftNs),
      firstAttackPacketAt: header.insertion.firstAttackPacketAt,
    },
    tieOrder: "background first",
    outOfOrder: {
      background: bg.outOfOrderPackets,
      attacks: atk.outOfOrderPackets,
      handling:
        bg.outOfOrderPackets + atk.outOfOrderPackets > 0
          ? "late packets held from the first pass and put back in timestamp order"
          : "none needed",
    },
    remapping: { mappings: map.mappings, checksums: options.checksums ?? "adjust", ...remapper?.stats },
    provenance: provenanceName,
  };
  fs.writeFileSync(path.join(outDir, summaryName), `${JSON.stringify(summary, null, 2)}\n`);
  onProgress?.({ percent: 100, stage: "done" });
  return {
    outputs: [
      { name: outputName, kind: "merged-pcap" },
      { name: provenanceName, kind: "provenance-json" },
      { name: summaryName, kind: "summary-json" },
    ],
    summary,
  };
}

function provenanceInput(id: 0 | 1, scan: CaptureScan): ProvenanceInput {
  return {
    id,
    role: id === 0 ? "background" : "attacks",
    file: scan.name,
    sha256: scan.sha256,
    bytes: scan.bytes,
    packets: scan.packets,
    first: scan.min ? formatIsoTime(toNs(scan.min)) : null,
    last: scan.max ? formatIsoTime(toNs(scan.max)) : null,
    outOfOrderPackets: scan.outOfOrderPackets,
    maxLatenessNs: String(scan.maxLatenessNs),
  };
}

function describe(scan: CaptureScan) {
  return {
    file: scan.name,
    format: scan.info.format,
    packets: scan.packets,
    linkTypes: scan.linkTypes,
    first: scan.min ? formatIsoTime(toNs(scan.min)) : null,
    last: scan.max ? formatIsoTime(toNs(scan.max)) : null,
    outOfOrderPackets: scan.outOfOrderPackets,
    maxLatenessSeconds: formatSeconds(BigInt(scan.maxLatenessNs)),
    sha256: scan.sha256,
  };
}

/** Shifted attack timestamps must fit the output's unsigned seconds (pcap: 32 bits; both: not before 1970). */
function checkRepresentable(attacks: CaptureScan, shiftNs: bigint, format: "pcap" | "pcapng"): void {
  if (!attacks.min || !attacks.max) return;
  const first = toNs(attacks.min) + shiftNs;
  const last = toNs(attacks.max) + shiftNs;
  const limit = format === "pcap" ? BigInt(MAX_PCAP_SECONDS) * 1_000_000_000n : 2n ** 63n;
  if (first < 0n || last > limit) {
    throw new TracemillError(
      "BAD_OPTION",
      `the shifted attack packets would span ${formatIsoTime(first)} to ${formatIsoTime(last)}, which a ${format} file cannot store`,
      { shiftNs: shiftNs.toString() },
    );
  }
}

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    throw new TracemillError("NOT_FOUND", `${path.basename(file)}: no such file`, { file });
  }
}

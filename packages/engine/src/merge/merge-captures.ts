// The merge capability: background and attack captures become one capture in timestamp order, the attacks
// shifted to the chosen point and optionally readdressed, with a provenance record beside it. Pipeline:
// scan both inputs → plan the output → place the attacks → merge the two streams → commit the files.
import fs from "node:fs";
import path from "node:path";
import type { CapturedPacket } from "@tracemill/core/capture";
import { PacketDecoder } from "@tracemill/core/decode";
import { AddressMap, type AddressMapping, AddressRemapper, type ChecksumMode } from "@tracemill/core/edit";
import { commonTimeline } from "@tracemill/core/timeline";
import type { CapabilityResult, RunOptions } from "../capability.js";
import { defaultHashingPlace, givenHash, type HashingPlace, InputDigests } from "../hashing/index.js";
import { CaptureCursor, CaptureInput, DEFAULT_CHUNK_BYTES, namedFault } from "../input/index.js";
import { type CaptureFileWriter, openCaptureWriter } from "../output/index.js";
import {
  PROVENANCE_FORMAT,
  PROVENANCE_VERSION,
  type ProvenanceHeader,
  type ProvenanceInput,
  ProvenanceWriter,
} from "../provenance/index.js";
import { checkRepresentable, fileSize, refuseReplacing } from "./input-checks.js";
import { InOrderSource } from "./late-packets.js";
import { mergeOrdered } from "./merge-loop.js";
import type { MergeSource } from "./merge-source.js";
import { copiesVerbatim, planOutput, writerOptions } from "./output-plan.js";
import { type ParsedPlacement, type PlacementOptions, parsePlacement, placeAttacks } from "./placement.js";
import { mergeRawBackground } from "./raw-background-merge.js";
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
  /**
   * Where inputs without a given digest are hashed: "worker" (one thread fed the chunks both passes read) or
   * "first-pass" (on the main thread from the same chunks; a gzip input still goes to a worker). Default: the
   * worker while a core is idle, else the first pass.
   */
  hashing?: HashingPlace;
}

const DEFAULT_MAX_REORDER_BYTES = 256 * 1024 * 1024;
const NO_COMMENTS: readonly string[] = [];
/** Stands for a digest still being computed in the provenance header first written (same length). */
const PENDING_HASH = "0".repeat(64);

export async function mergeCaptures(
  background: string,
  attacks: string,
  options: MergeOptions & RunOptions,
): Promise<CapabilityResult> {
  // Options are checked before any input is read: a typo should not cost a pass over gigabytes.
  const map = new AddressMap(options.mappings ?? []);
  const placementOptions = parsePlacement(options);
  if (options.output) refuseReplacing(options.output, background, attacks, options.outDir);
  // Inputs without a digest given (RunOptions.inputHashes) are hashed during the merge.
  const givenHashes = [background, attacks].map((file) => givenHash(options, file));
  const totalBytes = fileSize(background) + fileSize(attacks);
  // Whatever ends the merge stops any hashing still running.
  const digests = new InputDigests([background, attacks], givenHashes, {
    place: options.hashing ?? defaultHashingPlace(),
  });
  try {
    return await mergeInputs(background, attacks, options, { map, placementOptions, totalBytes, digests });
  } finally {
    digests.close();
  }
}

interface MergeSetup {
  map: AddressMap;
  placementOptions: ParsedPlacement;
  totalBytes: number;
  digests: InputDigests;
}

async function mergeInputs(
  background: string,
  attacks: string,
  options: MergeOptions & RunOptions,
  { map, placementOptions, totalBytes, digests }: MergeSetup,
): Promise<CapabilityResult> {
  const { outDir, onProgress, signal } = options;
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
  const [bgName, atkName] = [path.basename(background), path.basename(attacks)];
  const [bg, atk] = await Promise.all([
    scanCapture(background, bgName, maxLateBytes, scanSignal, scanProgress(0), { feed: digests, input: 0 }),
    scanCapture(attacks, atkName, maxLateBytes, scanSignal, scanProgress(1), { feed: digests, input: 1 }),
  ]).catch((error: unknown) => {
    scanStop.abort();
    throw error;
  });
  // The second pass does not feed the hashing worker: it reads what the first pass did not give it itself.
  digests.end(0);
  digests.end(1);
  const plan = planOutput(bg, atk);
  const placement = placeAttacks(bg, atk, placementOptions, plan.attackStepNs);
  checkRepresentable(atk, placement.shiftNs, plan.format);

  const outputName = options.output ?? `merged.${plan.format}`;
  refuseReplacing(outputName, background, attacks, outDir);
  const stem = outputName.replace(/\.(pcapng|pcap|cap)$/i, "");
  const provenanceName = `${stem}.provenance.jsonl`;
  const summaryName = `${stem}.summary.json`;
  const header: ProvenanceHeader = {
    format: PROVENANCE_FORMAT,
    version: PROVENANCE_VERSION,
    output: { file: outputName, format: plan.format },
    inputs: [provenanceInput(0, bg, PENDING_HASH), provenanceInput(1, atk, PENDING_HASH)],
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
  let sha256: string[] = [];
  try {
    // pcap → pcap with the background's records already in the output's layout: they are copied as bytes, read
    // on this thread (the runs are then copied out of this core's cache, cheaper than reading ahead on the thread
    // pool; the first pass, which walks only the record headers, reads ahead).
    const raw = plan.format === "pcap" && copiesVerbatim(bg.info, plan.nanosecond);
    const bgInput = raw
      ? await CaptureInput.open(background, DEFAULT_CHUNK_BYTES, { synchronous: true, copiesTails: true })
      : null;
    if (bgInput) inputs.push(bgInput);
    const bgCursor = raw ? null : await CaptureCursor.open(background, { name: bg.name, damage: "throw" });
    if (bgCursor) inputs.push(bgCursor);
    const atkCursor = await CaptureCursor.open(attacks, { name: atk.name, damage: "throw" });
    inputs.push(atkCursor);
    const out = await openCaptureWriter(path.join(outDir, outputName), writerOptions(plan, bg, atk));
    capture = out;
    const record = new ProvenanceWriter(path.join(outDir, provenanceName), header);
    provenance = record;
    const ordered = (cursor: CaptureCursor, scan: CaptureScan): MergeSource =>
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
      const named = {
        read: () => bgInput.read().catch((error) => Promise.reject(namedFault(error, bg.name, 0))),
        get fileBytesRead() {
          return bgInput.fileBytesRead;
        },
      };
      written = await mergeRawBackground(named, bg, ordered(atkCursor, atk), shift, {
        out,
        record,
        prepareAttack: (packet) => {
          if (remapper) remapper.remap(packet.data, decoder.decode(packet));
        },
        onProgress: (count) => progress("merging", 50 + (50 * count) / Math.max(1, totalPackets)),
        signal,
      });
    } else await mergeOrdered(ordered(bgCursor!, bg), ordered(atkCursor, atk), shift, sink, { signal, pace });
    // Every input is hashed or its digest given: none is null.
    sha256 = (await digests.all()) as string[];
    // A cancel that came during the last stretch still wins: nothing is committed after it.
    signal?.throwIfAborted();
    record.finish({ ...header, inputs: [provenanceInput(0, bg, sha256[0]), provenanceInput(1, atk, sha256[1])] });
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
    inputs: { background: describe(bg, sha256[0]), attacks: describe(atk, sha256[1]) },
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
    // Background and attack packets over the merged capture's time, on 100 common bins (docs/formats.md).
    timeline: commonTimeline([
      { name: "background", histogram: bg.times },
      { name: "attacks", histogram: atk.times, shift: Number(placement.shiftNs) / 1e9 },
    ]),
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

function provenanceInput(id: 0 | 1, scan: CaptureScan, sha256: string): ProvenanceInput {
  return {
    id,
    role: id === 0 ? "background" : "attacks",
    file: scan.name,
    sha256,
    bytes: scan.bytes,
    packets: scan.packets,
    first: scan.min ? formatIsoTime(toNs(scan.min)) : null,
    last: scan.max ? formatIsoTime(toNs(scan.max)) : null,
    outOfOrderPackets: scan.outOfOrderPackets,
    maxLatenessNs: String(scan.maxLatenessNs),
  };
}

function describe(scan: CaptureScan, sha256: string) {
  return {
    file: scan.name,
    format: scan.info.format,
    packets: scan.packets,
    linkTypes: scan.linkTypes,
    first: scan.min ? formatIsoTime(toNs(scan.min)) : null,
    last: scan.max ? formatIsoTime(toNs(scan.max)) : null,
    outOfOrderPackets: scan.outOfOrderPackets,
    maxLatenessSeconds: formatSeconds(BigInt(scan.maxLatenessNs)),
    sha256,
    ...(scan.info.warnings.length > 0 ? { warnings: scan.info.warnings } : {}),
  };
}

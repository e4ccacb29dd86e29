// One streaming pass: capture reader → decoder → fragment tracker → flow table → feature extractors, with hooks so
// that other outputs (the CSV, IPT series, image bytes, labels) are collected per session in the same pass.

import {
  type CapturedPacket,
  CIC_COMPAT_KEY,
  cicCompat,
  type DecodedPacket,
  DecodeKind,
  FeatureSet,
  type FlowPacket,
  FlowTable,
  FragmentTracker,
  type FragmentTrackerStats,
  featureSetsNamed,
  PacketDecoder,
  type Session,
} from "@tracemill/core";
import type { FlowOptions } from "./flow-options.js";
import { emptyResult, type FlowResult } from "./flow-result.js";
import { type EachInput, type ReadProgress, readCaptureFiles } from "./read-inputs.js";

/**
 * A session as the pipeline's hooks see it: the flow table's one view, valid during the call only (FlowTableHooks).
 * A hook keeps its per-session state by `session.slot`; the features' state is found from the record
 * (FeatureSet.stateOf).
 */
export type PipelineSession = Session;

export interface FlowHooks {
  onSessionStart?(session: PipelineSession, packet: FlowPacket): void;
  /** Every packet of a session, the first included, with its captured bytes (valid during the call only). */
  onPacket?(session: PipelineSession, packet: FlowPacket, captured: CapturedPacket): void;
  /** The session ended; `features.write(session, row)` writes its feature columns. */
  onSessionEnd(session: PipelineSession, features: FeatureSet): void;
}

/** A fragment held until its datagram's first fragment comes (FragmentTracker), copied from the reader's buffers. */
interface HeldFragment {
  decoded: DecodedPacket;
  captured: CapturedPacket;
  /** The packet's position over all inputs. */
  index: number;
}

/**
 * Runs the pass over `input`; sessions end through `hooks.onSessionEnd` in end order (not start order). Several
 * inputs are read one after another as one capture (the parts of a capture split by size or time): sessions go on
 * from one to the next, packet positions count on, and a damaged part keeps its packets before the damage, the
 * next part is read all the same. `run.eachInput(i)`, called before input i is read, may give it a tap and a step
 * awaited once it is read (a digest per input, one at a time); without it `run.tap` serves a single input.
 */
export async function runFlowPipeline(
  input: string | readonly string[],
  options: FlowOptions,
  hooks: FlowHooks,
  run: ReadProgress & { eachInput?: EachInput } = {},
): Promise<FlowResult> {
  const inputs = typeof input === "string" ? [input] : input;
  // --cic-compat (checked to come with the cic set alone): CIC-IDS2017's key and the cic set with its copied column.
  const features = options.cicCompat
    ? new FeatureSet([cicCompat], {}, CIC_COMPAT_KEY)
    : new FeatureSet(featureSetsNamed(options.features ?? []), { splt: options.splt });
  const result = emptyResult();
  const frameLength = options.length === "frame";
  const { onPacket, onSessionStart, onSessionEnd } = hooks;
  let captured: CapturedPacket;

  const table = new FlowTable(
    {
      onStart(session, packet) {
        features.start(session, packet);
        onSessionStart?.(session, packet);
      },
      onPacket(session, packet) {
        const state = features.stateFor(session, packet);
        if (state >= 0) features.update(state, packet);
        onPacket?.(session, packet, captured);
      },
      onEnd(session) {
        result.sessions.total++;
        if (session.protocol === 6) result.sessions.byProtocol.tcp++;
        else result.sessions.byProtocol.udp++;
        result.sessions.byEndReason[session.endReason]++;
        onSessionEnd(session, features);
        features.end(session);
      },
    },
    {
      idleTimeoutNs: (options.idleTimeout ?? 120) * 1e9,
      activeTimeoutNs: (options.activeTimeout ?? 1800) * 1e9,
    },
  );

  // Packet positions count on over the inputs: the packets of earlier inputs come first.
  let indexBase = 0;
  // Fragments that came before their datagram's first fragment are held, then counted at the time that first
  // fragment arrives (right after it), so time in the table never goes back for them.
  const resolved: HeldFragment[] = [];
  const tracker = new FragmentTracker<HeldFragment>({
    hold: (decoded, packet) => ({
      decoded: { ...decoded, src: decoded.src.slice(), dst: decoded.dst.slice() },
      captured: { ...packet, data: onPacket === undefined ? packet.data.subarray(0, 0) : packet.data.slice() },
      index: indexBase + packet.index,
    }),
    resolved(held, srcPort, dstPort) {
      held.decoded.srcPort = srcPort;
      held.decoded.dstPort = dstPort;
      held.decoded.kind = held.decoded.protocol === 6 ? DecodeKind.Tcp : DecodeKind.Udp;
      resolved.push(held);
    },
    unattributed() {
      result.packets.ignored["fragment without its first fragment"]++;
    },
  });
  const decoder = new PacketDecoder();
  const ignored = result.packets.ignored;

  const files = await readCaptureFiles(
    inputs,
    (packet) => {
      const decoded = decoder.decode(packet);
      let kind = decoded.kind;
      if (decoded.isFragment) kind = tracker.track(decoded, packet);
      if (kind === DecodeKind.Tcp || kind === DecodeKind.Udp) {
        captured = packet;
        table.add(
          decoded,
          packet.tsSec,
          packet.tsNsec,
          frameLength ? packet.originalLength : decoded.ipLength,
          indexBase + packet.index,
        );
        if (resolved.length > 0) {
          for (const held of resolved) {
            captured = held.captured;
            const length = frameLength ? held.captured.originalLength : held.decoded.ipLength;
            table.add(held.decoded, packet.tsSec, packet.tsNsec, length, held.index);
          }
          result.packets.decoded += resolved.length;
          resolved.length = 0;
        }
        result.packets.decoded++;
      } else if (kind === DecodeKind.NonIp) ignored["non-IP"]++;
      else if (kind === DecodeKind.OtherIp) ignored["non-TCP/UDP"]++;
      else if (kind === DecodeKind.Undecodable) {
        if (decoded.truncated) ignored.truncated++;
        else ignored.malformed++;
      }
    },
    {
      ...run,
      eachInput(index, base) {
        indexBase = base;
        return run.eachInput?.(index, base);
      },
    },
  );
  tracker.flush();
  table.flush();

  const damaged = files.find((read) => !read.complete);
  result.format = files[0].format;
  result.fileBytes = files.reduce((sum, read) => sum + read.fileBytes, 0);
  result.complete = damaged === undefined;
  result.damage = damaged?.damage ?? null;
  result.files = files;
  result.packets.read = files.reduce((sum, read) => sum + read.packets, 0);
  result.packets.outOfOrder = table.outOfOrder;
  const stats: FragmentTrackerStats = tracker.stats;
  result.fragments = { attributed: stats.attributed, resolvedLater: stats.resolvedLater };
  return result;
}

// One streaming pass over a capture: read → decode → flow table → feature CSV, with hooks that see every packet of
// every session and add to its row, so labels, IPT series and image rows come from the same pass as the features.
import {
  type CapturedPacket,
  csvHeaderLine,
  type DecodedPacket,
  DecodeKind,
  FEATURE_COLUMNS,
  FeatureSet,
  type FeatureState,
  type FlowPacket,
  FlowTable,
  FragmentTracker,
  OrderedRows,
  PacketDecoder,
  RowBuilder,
  type Session,
} from "@tracemill/core";
import type { RunOptions } from "../capability.js";
import { BufferedFile } from "./buffered-file.js";
import { readPackets } from "./read-packets.js";

/** Per-session work beside the features. States are created once per session record and reused. */
export interface SessionHooks<S> {
  createState(): S;
  /** A session starts (reset the state here). */
  onStart(state: S, session: Session): void;
  /** Every packet of the session, the first included; `data` is the captured frame (valid during the call). */
  onPacket(state: S, session: Session, packet: FlowPacket, data: Uint8Array): void;
  /** The session ended: add columns after the features (the row is started and will be ended by the pass). */
  onEnd(state: S, session: Session, row: RowBuilder): void;
  /** Called between input chunks: a place to wait for slow writers. */
  afterChunk?(): Promise<void>;
}

export interface SessionPassOptions {
  /** Idle timeout in seconds (default 120). */
  idleTimeout?: number;
  /** Active timeout in seconds (default 1800). */
  activeTimeout?: number;
  /** Packet length: the IP length (default) or the frame's original length. */
  length?: "ip" | "frame";
}

export interface SessionPassSummary {
  /** Bytes and packets read from the capture. */
  bytes: number;
  packets: number;
  sessionPackets: number;
  ignored: Record<string, number>;
  outOfOrder: number;
  sessions: number;
}

interface PassState<S> {
  features: FeatureState;
  extra: S;
}

interface HeldFragment {
  decoded: DecodedPacket;
  packet: CapturedPacket;
}

/** Runs the pass and writes the CSV (features + the hooks' columns) to `csvPath` (temporary name, then renamed). */
export async function runSessionPass<S>(
  capture: string,
  csvPath: string,
  extraColumns: readonly string[],
  hooks: SessionHooks<S>,
  options: SessionPassOptions,
  run: Pick<RunOptions, "onProgress" | "signal">,
): Promise<SessionPassSummary> {
  const features = new FeatureSet();
  const csv = new BufferedFile(csvPath);
  const row = new RowBuilder();
  const rows = new OrderedRows((bytes, start, end) => csv.write(bytes, start, end));
  const summary: SessionPassSummary = {
    bytes: 0,
    packets: 0,
    sessionPackets: 0,
    ignored: {},
    outOfOrder: 0,
    sessions: 0,
  };
  let currentData: Uint8Array = new Uint8Array(0);
  const table = new FlowTable<PassState<S>>(
    {
      createState: () => ({ features: features.createState(), extra: hooks.createState() }),
      onStart(session, packet) {
        features.init(session.state.features, packet);
        hooks.onStart(session.state.extra, session);
      },
      onPacket(session, packet) {
        features.update(session.state.features, packet);
        hooks.onPacket(session.state.extra, session, packet, currentData);
      },
      onEnd(session) {
        row.start();
        features.finish(session.state.features, session, row);
        hooks.onEnd(session.state.extra, session, row);
        row.end();
        rows.put(session.seq, row.bytes, row.length);
        summary.sessions++;
      },
    },
    {
      idleTimeoutNs: (options.idleTimeout ?? 120) * 1e9,
      activeTimeoutNs: (options.activeTimeout ?? 1800) * 1e9,
    },
  );
  const frameLength = options.length === "frame";
  const addToTable = (decoded: DecodedPacket, packet: CapturedPacket) => {
    currentData = packet.data;
    summary.sessionPackets++;
    table.add(
      decoded,
      packet.tsSec,
      packet.tsNsec,
      frameLength ? packet.originalLength : decoded.ipLength,
      packet.index,
    );
  };
  const ignore = (reason: string) => {
    summary.ignored[reason] = (summary.ignored[reason] ?? 0) + 1;
  };
  const tracker = new FragmentTracker<HeldFragment>({
    hold: (decoded, packet) => ({
      decoded: { ...decoded, src: decoded.src.slice(), dst: decoded.dst.slice() },
      packet: { ...packet, data: packet.data.slice() },
    }),
    resolved(held, srcPort, dstPort) {
      held.decoded.srcPort = srcPort;
      held.decoded.dstPort = dstPort;
      held.decoded.kind = held.decoded.protocol === 6 ? DecodeKind.Tcp : DecodeKind.Udp;
      addToTable(held.decoded, held.packet);
    },
    unattributed: () => ignore("fragment without its first fragment"),
  });
  const decoder = new PacketDecoder();

  csv.write(new TextEncoder().encode(csvHeaderLine([...FEATURE_COLUMNS, ...extraColumns])));
  try {
    const read = await readPackets(
      capture,
      (packet) => {
        summary.packets++;
        const decoded = decoder.decode(packet);
        let kind = decoded.kind;
        if (decoded.isFragment) kind = tracker.track(decoded, packet);
        if (kind === DecodeKind.Tcp || kind === DecodeKind.Udp) addToTable(decoded, packet);
        else if (kind !== DecodeKind.FragmentPending) ignore(ignoredReason(decoded));
      },
      { ...run, afterChunk: hooks.afterChunk },
    );
    summary.bytes = read.bytes;
    tracker.flush();
    table.flush();
    summary.outOfOrder = table.outOfOrder;
    await csv.finish();
    return summary;
  } catch (error) {
    await csv.discard();
    throw error;
  }
}

function ignoredReason(decoded: DecodedPacket): string {
  if (decoded.kind === DecodeKind.NonIp) return "non-IP";
  if (decoded.kind === DecodeKind.OtherIp) return "non-TCP/UDP";
  if (decoded.truncated) return "truncated";
  return "malformed";
}

// `extract --threads N`: the features pass with sessions sharded over N worker threads by a symmetric hash of their
// endpoints. This thread reads, decodes, resolves fragments and clamps time once for the whole capture (so every
// table sees the single-thread times), and merges the workers' rows back into the single-thread order.
import fs from "node:fs";
import path from "node:path";
import {
  csvHeaderLine,
  type DecodedPacket,
  DecodeKind,
  FEATURE_COLUMNS,
  FragmentTracker,
  PacketDecoder,
  TracemillError,
} from "@tracemill/core";
import type { RunOptions } from "../capability.js";
import { givenHash } from "../input-hashes.js";
import { TRACEMILL_VERSION } from "../version.js";
import { InputDigests } from "./file-digest.js";
import { FileRowSpill, ROW_MEMORY_BYTES } from "./file-row-spill.js";
import { addSessions, emptyResult } from "./flow-counts.js";
import { checkedFlowOptions } from "./flow-options.js";
import type { FlowOptions, HeldFragment } from "./flow-pipeline.js";
import { OutputFile } from "./output-file.js";
import { type ReadProgress, readCaptureFiles } from "./read-capture-file.js";
import { RowMerge } from "./row-merge.js";
import { inputsSummary, type SessionPassSummary } from "./session-pass.js";
import { HELD_BATCHES } from "./shard-outbox.js";
import {
  F_ADD,
  F_INDEX,
  F_SEC,
  R_DST,
  R_HEADERS,
  R_KIND,
  R_LENGTH,
  R_NSEC,
  R_PORTS,
  R_SRC,
  RecordType,
  type RingWriter,
} from "./shard-ring.js";
import { type ShardWorkerOptions, ShardWorkers } from "./shard-workers.js";

const NS = 1e9;
/** Flow-table additions between two ticks (each worker's idle expiry and row watermark advance at every tick). */
const TICK_ADDS = 8192;

/**
 * runSessionPass without hooks (the features alone) on `threads` session workers: the same CSV and summary, byte for
 * byte. `testing` (tests only) injects a worker failure, or ticks more often.
 */
export async function runShardedPass(
  capture: string | readonly string[],
  csvPath: string,
  flowOptions: FlowOptions,
  threads: number,
  run: ReadProgress & Pick<RunOptions, "rowMemoryBytes" | "inputHashes">,
  testing: Pick<ShardWorkerOptions, "failWorker" | "failAfterPackets" | "failByExit" | "stallLimitMs"> & {
    tickAdds?: number;
  } = {},
): Promise<SessionPassSummary> {
  const options = checkedFlowOptions(flowOptions);
  const captures = typeof capture === "string" ? [capture] : capture;
  for (const file of captures) {
    if (!fs.existsSync(file)) throw new TracemillError("NOT_FOUND", `${file}: no such file`, { file });
  }
  const given = captures.map((file) => givenHash(run, file));
  const csv = new OutputFile(csvPath);
  const digests = new InputDigests(captures, given);
  const idleTimeoutNs = options.idleTimeout * NS;
  const tickAdds = testing.tickAdds ?? TICK_ADDS;
  // The limit is shared by the merge and the workers, so that waiting rows take as much memory as in the single pass.
  const rowMemoryBytes = Math.ceil((run.rowMemoryBytes ?? ROW_MEMORY_BYTES) / (threads + 1));
  // Rows of one worker that wait for another's (its oldest live session holds them all back).
  const spills = Array.from({ length: threads }, (_, i) => new FileRowSpill(`${csvPath}.waiting-rows-merge-${i}`));
  let workers: ShardWorkers | null = null;
  try {
    csv.write(new TextEncoder().encode(csvHeaderLine(FEATURE_COLUMNS)));
    const merge = new RowMerge(
      threads,
      (bytes, start, end) => csv.write(bytes, start, end),
      (worker, batch) => workers?.recycle(worker, batch),
      { spills, memoryBytes: rowMemoryBytes, heldBatches: HELD_BATCHES },
    );
    workers = new ShardWorkers(
      threads,
      {
        idleTimeoutNs,
        activeTimeoutNs: options.activeTimeout * NS,
        rowSpillPrefix: `${csvPath}.waiting-rows`,
        rowMemoryBytes,
        failWorker: testing.failWorker,
        failAfterPackets: testing.failAfterPackets,
        failByExit: testing.failByExit,
        stallLimitMs: testing.stallLimitMs,
      },
      (worker, batch) => merge.add(worker, batch),
    );
    const shards = workers;
    await shards.ready();
    const rings = shards.rings;
    const frameLength = options.length === "frame";
    const result = emptyResult();
    const ignored = result.packets.ignored;

    // The flow table's out-of-order rule, once for the whole capture: a packet earlier than the latest time seen
    // is counted at that time. The latest time (whole seconds, nanoseconds) is kept in a typed array: a `let` the
    // closure shares lives in a context slot, where every double stored is a new heap number (147 MB of garbage
    // over bench-large's 10 M packets).
    const clock = new Float64Array([Number.NEGATIVE_INFINITY, 0]);
    let adds = 0;
    const route = (decoded: DecodedPacket, tsSec: number, tsNsec: number, length: number, index: number) => {
      if (tsSec > clock[0] || (tsSec === clock[0] && tsNsec >= clock[1])) {
        clock[0] = tsSec;
        clock[1] = tsNsec;
      } else {
        result.packets.outOfOrder++;
      }
      const sec = clock[0];
      const nsec = clock[1];
      const v4 = decoded.ipVersion === 4;
      const ring = rings[shardOf(decoded.src, decoded.dst, v4, decoded.srcPort, decoded.dstPort, threads)];
      const w = ring.next();
      const bytes = ring.bytes;
      const src = decoded.src;
      const dst = decoded.dst;
      const at = 4 * w;
      for (let b = 0, n = v4 ? 4 : 16; b < n; b++) {
        bytes[at + 4 * R_SRC + b] = src[b];
        bytes[at + 4 * R_DST + b] = dst[b];
      }
      const words = ring.words;
      words[w + R_PORTS] = (decoded.srcPort << 16) | decoded.dstPort;
      words[w + R_KIND] = decoded.protocol | (decoded.ipVersion << 8) | (decoded.tcpFlags << 16);
      words[w + R_LENGTH] = length;
      words[w + R_HEADERS] = decoded.ipHeaderLength + decoded.transportHeaderLength;
      words[w + R_NSEC] = nsec;
      const f = w / 2;
      const numbers = ring.numbers;
      numbers[f + F_SEC] = sec;
      numbers[f + F_INDEX] = index;
      numbers[f + F_ADD] = adds++;
      ring.done();
      if (adds % tickAdds === 0) markAll(RecordType.Tick);
    };
    const markAll = (type: number) => {
      for (const ring of rings) writeMark(ring, type, clock[0], clock[1], adds);
    };

    // Fragments before their datagram's first fragment are held and counted right after it, at its time (as the
    // single-thread pipeline does).
    const resolved: HeldFragment[] = [];
    // Packet positions count on over the inputs (the parts of a split capture).
    let indexBase = 0;
    const tracker = new FragmentTracker<HeldFragment>({
      hold: (decoded, packet) => ({
        decoded: { ...decoded, src: decoded.src.slice(), dst: decoded.dst.slice() },
        captured: { ...packet, data: packet.data.subarray(0, 0) },
        index: indexBase + packet.index,
      }),
      resolved(held, srcPort, dstPort) {
        held.decoded.srcPort = srcPort;
        held.decoded.dstPort = dstPort;
        held.decoded.kind = held.decoded.protocol === 6 ? DecodeKind.Tcp : DecodeKind.Udp;
        resolved.push(held);
      },
      unattributed() {
        ignored["fragment without its first fragment"]++;
      },
    });
    const decoder = new PacketDecoder();
    const files = await readCaptureFiles(
      captures,
      (packet) => {
        const decoded = decoder.decode(packet);
        let kind = decoded.kind;
        if (decoded.isFragment) kind = tracker.track(decoded, packet);
        if (kind === DecodeKind.Tcp || kind === DecodeKind.Udp) {
          route(
            decoded,
            packet.tsSec,
            packet.tsNsec,
            frameLength ? packet.originalLength : decoded.ipLength,
            indexBase + packet.index,
          );
          if (resolved.length > 0) {
            for (const held of resolved) {
              const length = frameLength ? held.captured.originalLength : held.decoded.ipLength;
              route(held.decoded, packet.tsSec, packet.tsNsec, length, held.index);
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
          return digests.eachInput(index);
        },
        // After every chunk: the workers get what was written (they would wait for a full group otherwise).
        onProgress(progress) {
          for (const ring of rings) ring.publish(true);
          shards.throwFailure();
          run.onProgress?.(progress);
        },
      },
    );
    tracker.flush();
    markAll(RecordType.End);
    for (const ring of rings) ring.publish(true);
    for (const done of await shards.results(run.signal)) addSessions(result.sessions, done.sessions);

    const damaged = files.find((read) => !read.complete);
    result.format = files[0].format;
    result.fileBytes = files.reduce((sum, read) => sum + read.fileBytes, 0);
    result.complete = damaged === undefined;
    result.damage = damaged?.damage ?? null;
    result.packets.read = files.reduce((sum, read) => sum + read.packets, 0);
    const stats = tracker.stats;
    result.fragments = { attributed: stats.attributed, resolvedLater: stats.resolvedLater };
    // The digests were taken before the CSV's final name: if hashing fails, no CSV is left without its summary.
    await csv.commit();
    return {
      tracemill: { version: TRACEMILL_VERSION },
      ...inputsSummary(captures, files, digests.sha256),
      options,
      complete: result.complete,
      damage: result.damage === null ? null : { offset: result.damage.offset, message: result.damage.message },
      packets: result.packets,
      fragments: result.fragments,
      sessions: result.sessions,
      csv: { name: path.basename(csvPath), rows: merge.rows, columns: FEATURE_COLUMNS.length },
    };
  } catch (error) {
    digests.cancel();
    await csv.discard();
    throw workers === null ? error : await workers.reported(error);
  } finally {
    // Their threads end after a quiet time (threads/retire.ts): the result does not wait for it, the process does.
    void workers?.stop();
    for (const spill of spills) spill.close();
  }
}

/** A tick or end record: the capture's latest time and the number of additions so far. */
function writeMark(ring: RingWriter, type: number, sec: number, nsec: number, adds: number): void {
  const w = ring.next();
  ring.words[w + R_KIND] = type << 24;
  ring.words[w + R_NSEC] = nsec;
  ring.numbers[w / 2 + F_SEC] = sec;
  ring.numbers[w / 2 + F_ADD] = adds;
  ring.done();
}

/**
 * The worker of a packet's session: the same for both directions (each endpoint's address and port are mixed
 * together first, then the two mixes combined by xor), spread evenly by a final multiplicative mix. Mixing the
 * port in by multiplication, not by xor with the address, keeps hosts that count up with their ports (10.5.0.i:1000+i)
 * from landing on one worker.
 */
export function shardOf(
  src: Uint8Array,
  dst: Uint8Array,
  v4: boolean,
  sport: number,
  dport: number,
  n: number,
): number {
  let a = (src[0] << 24) | (src[1] << 16) | (src[2] << 8) | src[3];
  let b = (dst[0] << 24) | (dst[1] << 16) | (dst[2] << 8) | dst[3];
  if (!v4) {
    for (let i = 4; i < 16; i += 4) {
      a = Math.imul(a ^ ((src[i] << 24) | (src[i + 1] << 16) | (src[i + 2] << 8) | src[i + 3]), 0x9e3779b1);
      b = Math.imul(b ^ ((dst[i] << 24) | (dst[i + 1] << 16) | (dst[i + 2] << 8) | dst[i + 3]), 0x9e3779b1);
    }
  }
  let h = endpointMix(a, sport) ^ endpointMix(b, dport);
  h ^= h >>> 15;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 13;
  return (h >>> 0) % n;
}

function endpointMix(address: number, port: number): number {
  let e = Math.imul((address + Math.imul(port, 0x27d4eb2f)) | 0, 0x85ebca6b);
  e ^= e >>> 16;
  return Math.imul(e, 0x9e3779b1);
}

// A session worker of `extract --threads N`: the flow table, feature extractors and row formatting of the sessions
// whose endpoints hash to it, fed packet records through its ring; rows go back in its start order with merge keys.
import { parentPort, workerData } from "node:worker_threads";
import {
  createDecodedPacket,
  DecodeKind,
  FeatureSet,
  FlowTable,
  OrderedRows,
  RowBuilder,
  type Session,
} from "@tracemill/core";
import { BUSY_WORKER_QUIET_MS } from "../threads/retire.js";
import { FileRowSpill } from "./file-row-spill.js";
import { emptyResult } from "./flow-counts.js";
import { RowOutbox } from "./shard-outbox.js";
import type { ShardDone, ShardFailure, ShardReady, WorkerSetup } from "./shard-protocol.js";
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
  RingReader,
} from "./shard-ring.js";
import { StartQueue } from "./start-queue.js";

const NEWLINE = 10;

function run(setup: WorkerSetup, spill: FileRowSpill): void {
  const ring = new RingReader(setup.ring);
  const { words, numbers, bytes } = ring;
  const features = new FeatureSet();
  const row = new RowBuilder();
  const outbox = new RowOutbox((batch, transfer) => setup.rows.postMessage(batch, transfer), setup.returns, ring);
  const done: ShardDone = { done: true, sessions: emptyResult().sessions };
  const byEndReason = done.sessions.byEndReason;
  // The merge key (global addition number) of every session from the oldest unwritten row on, in seq order.
  const starts = new StartQueue();
  let currentAdd = 0;

  // OrderedRows passes rows on in runs of whole rows; each row ends with the only line feed in it.
  const ordered = new OrderedRows(
    (rowBytes, start, end) => {
      for (let from = start; from < end; starts.shift()) {
        const to = rowBytes.indexOf(NEWLINE, from) + 1;
        outbox.add(rowBytes, from, to, starts.first);
        from = to;
      }
    },
    { spill, memoryBytes: setup.rowMemoryBytes },
  );
  const table = new FlowTable(
    {
      onStart(session, packet) {
        // Sessions start in seq order, and rows leave OrderedRows in it: the queue's first is the next row's key.
        starts.push(currentAdd);
        features.start(session, packet);
      },
      onPacket(session, packet) {
        const state = features.stateFor(session, packet);
        if (state >= 0) features.update(state, packet);
      },
      onEnd(session: Session) {
        done.sessions.total++;
        if (session.protocol === 6) done.sessions.byProtocol.tcp++;
        else done.sessions.byProtocol.udp++;
        byEndReason[session.endReason]++;
        row.start();
        features.write(session, row);
        row.end();
        ordered.put(session.seq, row.bytes, row.length);
        features.end(session);
      },
    },
    { idleTimeoutNs: setup.idleTimeoutNs, activeTimeoutNs: setup.activeTimeoutNs },
  );

  const decoded = createDecodedPacket();
  const src = decoded.src;
  const dst = decoded.dst;
  let packets = 0;
  let watermark = -1;
  const ready: ShardReady = { ready: true };
  parentPort!.postMessage(ready);
  for (;;) {
    const available = ring.available(1000);
    if (available < 0) return;
    for (let i = 0; i < available; i++) {
      const w = ring.offset;
      const f = w / 2;
      const kind = words[w + R_KIND];
      const type = kind >>> 24;
      if (type === RecordType.Packet) {
        if (++packets === setup.failAfterPackets) {
          if (setup.failByExit) {
            // Idle first, as a thread killed from outside would be by the time it ended (see threads/retire.ts).
            Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, BUSY_WORKER_QUIET_MS);
            process.exit(1);
          }
          throw new Error(`injected failure after ${packets} packets`);
        }
        const version = (kind >>> 8) & 255;
        const addressBytes = version === 4 ? 4 : 16;
        const at = 4 * w;
        for (let b = 0; b < addressBytes; b++) {
          src[b] = bytes[at + 4 * R_SRC + b];
          dst[b] = bytes[at + 4 * R_DST + b];
        }
        const ports = words[w + R_PORTS];
        decoded.srcPort = ports >>> 16;
        decoded.dstPort = ports & 0xffff;
        decoded.protocol = kind & 255;
        decoded.kind = decoded.protocol === 6 ? DecodeKind.Tcp : DecodeKind.Udp;
        decoded.ipVersion = version as 4 | 6;
        decoded.tcpFlags = (kind >>> 16) & 255;
        // The table counts IP + transport header bytes as one sum: it comes whole, as the IP header's share.
        decoded.ipHeaderLength = words[w + R_HEADERS] >>> 0;
        decoded.transportHeaderLength = 0;
        currentAdd = numbers[f + F_ADD];
        // The time the reading thread clamped (never before an earlier record's), as it was captured: whole seconds
        // and nanoseconds.
        table.add(decoded, numbers[f + F_SEC], words[w + R_NSEC], words[w + R_LENGTH] >>> 0, numbers[f + F_INDEX]);
      } else {
        // The capture's time went on: sessions idle by then end (and at the end, the capture's last time tells
        // idle from end of capture, as in the single pass).
        table.advance(numbers[f + F_SEC], words[w + R_NSEC]);
        if (type === RecordType.End) {
          table.flush();
          outbox.send(Number.POSITIVE_INFINITY);
          ring.release(true);
          parentPort!.postMessage(done);
          return;
        }
        // Every later row of this worker starts at its oldest live session or at an addition not yet made.
        const next = starts.length > 0 ? starts.first : numbers[f + F_ADD];
        if (outbox.count > 0 || next !== watermark) outbox.send(next);
        watermark = next;
      }
      ring.advance();
    }
  }
}

const setup = workerData as WorkerSetup;
// Rows waiting for this worker's own earlier rows; a descriptor belongs to the process: closed here.
const spill = new FileRowSpill(setup.rowSpillPath);
try {
  run(setup, spill);
} catch (error) {
  new RingReader(setup.ring).fail();
  const failure: ShardFailure = {
    error: error instanceof Error ? error.message : String(error),
    code: (error as { code?: unknown }).code as string | undefined,
  };
  parentPort!.postMessage(failure);
} finally {
  spill.close();
}
// The thread would end here with compiles of its hot code maybe still running: it idles first (threads/retire.ts).
setTimeout(() => {}, BUSY_WORKER_QUIET_MS);

// Tracemill's extraction pass in a bare Node process, phase by phase, in CPU seconds: read and decode alone, the same
// with the SHA-256 of the chunks read (as the CLI computes it), read + decode + flow table + extractors, then with every
// row formatted and put back in start order (everything but the file writes), then with the CSV written too. The CLI's
// CPU time is about the last plus the SHA-256's share (+sha256 minus read+decode). Pinned to one core (`taskset -c 0`),
// pass+csv is read → features → CSV on one core; `PHASES=pass+csv` runs it alone, in a process of its own.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { DecodeKind, FEATURE_COLUMNS, OrderedRows, PacketDecoder, RowBuilder } from "../../packages/core/dist/index.js";
import {
  FileRowSpill,
  InputDigests,
  ROW_MEMORY_BYTES,
  readCapture,
  runFlowPipeline,
} from "../../packages/engine/dist/index.js";

const capture = process.argv[2];

/** PHASES=pass+csv (comma-separated) runs only those, each then in a process not warmed by the others. */
const only = process.env.PHASES?.split(",");

async function phase(name, run) {
  if (only && !only.includes(name)) return 0;
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const { packets, note } = await run();
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const seconds = (used.user + used.system) / 1e6;
  const rss = Math.round(process.memoryUsage().rss / 2 ** 20);
  console.log(
    `${name.padEnd(12)} ${wall.toFixed(2).padStart(7)} ${seconds.toFixed(2).padStart(7)} ` +
      `${Math.round(packets / wall)
        .toString()
        .padStart(10)} ${rss.toString().padStart(7)}   ` +
      `(${Math.round(packets / seconds)} packets per CPU second${note ? `, ${note}` : ""})`,
  );
  return packets;
}

/** Bytes gathered before a write, as the CLI's OutputFile does: the sink gets rows one by one. */
const WRITE_BYTES = 1 << 20;

/**
 * The flow pass; with `format` every row formatted and put in start order, with `fd` also written there. `spill`
 * (a path) holds rows waiting for order beyond the CLI's limit in a temporary file there, as the CLI does.
 */
async function flowPass(format, fd, spill) {
  const row = new RowBuilder();
  let bytes = 0;
  const out = new Uint8Array(WRITE_BYTES);
  let used = 0;
  const flush = () => {
    for (let at = 0; at < used; ) at += fs.writeSync(fd, out, at, used - at);
    used = 0;
  };
  const spilled = spill === undefined ? undefined : new FileRowSpill(spill);
  const ordered = new OrderedRows((chunk, start, end) => {
    bytes += end - start;
    if (fd === undefined) return;
    if (used + end - start > WRITE_BYTES) flush();
    if (end - start > WRITE_BYTES) for (let at = start; at < end; ) at += fs.writeSync(fd, chunk, at, end - at);
    else {
      out.set(chunk.subarray(start, end), used);
      used += end - start;
    }
  }, spilled && { spill: spilled, memoryBytes: ROW_MEMORY_BYTES });
  const result = await runFlowPipeline(
    capture,
    {},
    {
      onSessionEnd(session, features) {
        if (!format) return;
        row.start();
        features.write(session, row);
        row.end();
        ordered.put(session.seq, row.bytes, row.length);
      },
    },
  );
  if (fd !== undefined) flush();
  spilled?.close();
  const waited = spilled ? `, ${(ordered.spilledBytes / 2 ** 20).toFixed(0)} MiB of them waited on disk` : "";
  const note = `${result.sessions.total} sessions${format ? `, ${(bytes / 2 ** 20).toFixed(0)} MiB of rows${waited}` : ""}`;
  return { packets: result.packets.read, note };
}

console.log(`${"phase".padEnd(12)} ${"wall_s".padStart(7)} ${"cpu_s".padStart(7)} ${"packets/s".padStart(10)} rss_MB`);
await phase("read+decode", async () => {
  const decoder = new PacketDecoder();
  let tcpUdp = 0;
  const result = await readCapture(capture, (packet) => {
    const kind = decoder.decode(packet).kind;
    if (kind === DecodeKind.Tcp || kind === DecodeKind.Udp) tcpUdp++;
  });
  return { packets: result.packets, note: `${tcpUdp} TCP/UDP (fragments aside)` };
});
await phase("+sha256", async () => {
  // As the CLI does it: the reader's chunks handed to the hashing worker, the reader waiting for a free slot (its CPU
  // time counts here too); the cost of the SHA-256 is this phase's minus read+decode's.
  const decoder = new PacketDecoder();
  const digests = new InputDigests([capture], [undefined], { wait: true });
  const result = await readCapture(capture, (packet) => decoder.decode(packet), { tap: digests.tap(0) });
  const [sha256] = await digests.all();
  digests.close();
  return { packets: result.packets, note: `read+decode+sha256, ${sha256.slice(0, 12)}` };
});
await phase("pass", () => flowPass(false));
await phase("pass+rows", () => flowPass(true));
await phase("pass+csv", async () => {
  // Read → features → CSV on this thread alone (the rows written 1 MiB at a time with blocking writes, kernel copies
  // included; rows waiting for order beyond 64 MiB spilled to a temporary file, as the CLI does), without the SHA-256
  // of the input that the CLI's summary adds on a worker thread.
  const file = path.join(os.tmpdir(), `tracemill-engine-throughput-${process.pid}.csv`);
  const fd = fs.openSync(file, "w");
  try {
    fs.writeSync(fd, `${FEATURE_COLUMNS.join(",")}\n`);
    return await flowPass(true, fd, `${file}.waiting-rows`);
  } finally {
    fs.closeSync(fd);
    fs.rmSync(file, { force: true });
  }
});

// Tracemill's extraction pass in a bare Node process, phase by phase, in CPU seconds: read and decode alone, the same
// with the SHA-256 of the chunks read (as the CLI computes it), read + decode + flow table + extractors, then with every
// row formatted and put back in start order (everything but the file writes). The CLI's CPU time is about the last
// plus the SHA-256's share (+sha256 minus read+decode).
import { DecodeKind, OrderedRows, PacketDecoder, RowBuilder } from "../../packages/core/dist/index.js";
import { FileDigest, readCapture, runFlowPipeline } from "../../packages/engine/dist/index.js";

const capture = process.argv[2];

async function phase(name, run) {
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

async function flowPass(format) {
  const row = new RowBuilder();
  let bytes = 0;
  const ordered = new OrderedRows((_chunk, start, end) => {
    bytes += end - start;
  });
  const result = await runFlowPipeline(
    capture,
    {},
    {
      onSessionEnd(session, features) {
        if (!format) return;
        row.start();
        features.finish(features.stateOf(session), session, row);
        row.end();
        ordered.put(session.seq, row.bytes, row.length);
      },
    },
  );
  const note = `${result.sessions.total} sessions${format ? `, ${(bytes / 2 ** 20).toFixed(0)} MiB of rows` : ""}`;
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
  // As the CLI does it: the reader's chunks handed to the digest worker (its CPU time counts here too); the cost of
  // the SHA-256 is this phase's minus read+decode's.
  const decoder = new PacketDecoder();
  const digest = new FileDigest(capture);
  const result = await readCapture(capture, (packet) => decoder.decode(packet), { tap: digest.tap });
  return { packets: result.packets, note: `read+decode+sha256, ${(await digest.result()).slice(0, 12)}` };
});
await phase("pass", () => flowPass(false));
await phase("pass+rows", () => flowPass(true));

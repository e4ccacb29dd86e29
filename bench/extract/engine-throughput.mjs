// Tracemill's extraction pass in a bare Node process, phase by phase, in CPU seconds: read + decode + flow table +
// extractors alone, then with every row formatted and put back in start order (everything but the file writes).
import { OrderedRows, RowBuilder } from "../../packages/core/dist/index.js";
import { runFlowPipeline } from "../../packages/engine/dist/index.js";

const capture = process.argv[2];

async function phase(name, format) {
  const row = new RowBuilder();
  let bytes = 0;
  const ordered = new OrderedRows((_chunk, start, end) => {
    bytes += end - start;
  });
  const cpu = process.cpuUsage();
  const started = process.hrtime.bigint();
  const result = await runFlowPipeline(
    capture,
    {},
    {
      onSessionEnd(session, features) {
        if (!format) return;
        row.start();
        features.finish(session.state.features, session, row);
        row.end();
        ordered.put(session.seq, row.bytes, row.length);
      },
    },
  );
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  const used = process.cpuUsage(cpu);
  const seconds = (used.user + used.system) / 1e6;
  const packets = result.packets.read;
  console.log(
    `${name.padEnd(10)} ${wall.toFixed(2).padStart(9)} ${seconds.toFixed(2).padStart(9)} ${Math.round(packets / wall)
      .toString()
      .padStart(12)} ` +
      `${Math.round(process.memoryUsage().rss / 2 ** 20)
        .toString()
        .padStart(
          10,
        )}   (${Math.round(packets / seconds)} packets per CPU second, ${result.sessions.total} sessions, ${(bytes / 2 ** 20).toFixed(0)} MiB of rows)`,
  );
}

await phase("pass", false);
await phase("pass+rows", true);

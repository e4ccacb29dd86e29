// The feature explorer's answer times through the server, run by hand after `npm run build`: a capture is uploaded
// and extracted twice by `tracemill serve` (CSV and Parquet, the tracemill, cic and nfstream sets), then each output
// is explored as a browser would: its columns (cold: the first request reads the CSV whole into the cache, or the
// Parquet footer), the first column, then new columns one after another (never asked before, the table open), and the
// first column again with other bins on the log scale. Prints each time and the cache's size; figures:
// docs/performance.md.
//   node bench/server/explorer-bench.mjs /tmp/bench/bench-small.pcap [--rounds 3]
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";

const args = process.argv.slice(2);
const roundsAt = args.indexOf("--rounds");
const rounds = roundsAt >= 0 ? Number(args.splice(roundsAt, 2)[1]) : 3;
const capture = args[0];
if (capture === undefined || !fs.existsSync(capture)) {
  console.error("usage: node bench/server/explorer-bench.mjs <capture> [--rounds N]");
  process.exit(2);
}

/** Columns asked for after the first: numbers, addresses, a time, a list, a cic name with a slash. */
const NEW_COLUMNS = ["total_fpktl", "srcIP", "ts", "Flow Bytes/s", "dstPrt", "splt_ps", "bidirectional_bytes"];
const FIRST_COLUMN = "mean_flowpktl";

async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-explorer-bench-"));
  const server = spawn(
    process.execPath,
    ["apps/cli/bin/tracemill.js", "serve", "--port", "0", "--host", "127.0.0.1", "--data", dataDir],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  const base = await new Promise((resolve) => {
    server.stdout.on("data", (chunk) => {
      const match = /running at (http:\/\/\S+?)\/? /.exec(chunk.toString());
      if (match) resolve(match[1]);
    });
  });
  return { base, dataDir, server };
}

async function signIn(base) {
  const headers = { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" };
  const email = `bench-${Date.now()}@example.org`;
  const password = "bench password";
  await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers,
    body: JSON.stringify({ userName: "bench", email, password, Renewpassword: password }),
  });
  const login = await fetch(`${base}/api/auth/login`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email, password }),
  });
  return { ...headers, Cookie: login.headers.get("set-cookie").split(";")[0] };
}

async function upload(base, headers, file) {
  const boundary = "----tracemill-bench";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${path.basename(file)}"\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const body = Readable.from(
    (async function* () {
      yield head;
      yield* fs.createReadStream(file);
      yield tail;
    })(),
  );
  const response = await fetch(`${base}/api/files`, {
    method: "POST",
    headers: {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(head.length + fs.statSync(file).size + tail.length),
      "Sec-Fetch-Site": "same-origin",
      Cookie: headers.Cookie,
    },
    body,
    duplex: "half",
  });
  return (await response.json()).id;
}

async function extracted(base, headers, fileId, format) {
  const created = await fetch(`${base}/api/jobs`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      title: `explorer bench ${format}`,
      capability: "extract",
      params: { features: ["tracemill", "cic", "nfstream"], format },
      inputs: { capture: { fileId } },
    }),
  });
  const { id } = await created.json();
  for (;;) {
    const job = await (await fetch(`${base}/api/jobs/${id}`, { headers })).json();
    if (job.status === "succeeded") return job;
    if (job.status !== "queued" && job.status !== "running")
      throw new Error(`${format} job ${job.status}: ${job.error}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/** Milliseconds one GET takes, its answer read whole (and checked to be a success). */
async function timed(base, headers, url) {
  const started = performance.now();
  const response = await fetch(`${base}${url}`, { headers });
  const body = await response.text();
  const ms = performance.now() - started;
  if (!response.ok) throw new Error(`${url}: ${response.status} ${body}`);
  return { ms, body: JSON.parse(body) };
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const fixed = (ms) => `${ms.toFixed(0)} ms`;

const { base, dataDir, server } = await startServer();
try {
  const headers = await signIn(base);
  const fileId = await upload(base, headers, capture);
  for (const format of ["csv", "parquet"]) {
    const job = await extracted(base, headers, fileId, format);
    const output = job.outputs.find((o) => o.name.endsWith(`.${format}`));
    const columnsUrl = `/api/jobs/${job.id}/outputs/${encodeURIComponent(output.name)}/columns`;
    const column = (name, query = "") => `${columnsUrl}/${encodeURIComponent(name)}${query}`;
    const cold = await timed(base, headers, columnsUrl);
    const first = await timed(base, headers, column(FIRST_COLUMN));
    console.log(
      `${output.name}: ${(output.size / 1e6).toFixed(1)} MB, ${cold.body.rows} rows × ${cold.body.columns.length} columns`,
    );
    console.log(`  columns, cold (first request):     ${fixed(cold.ms)}`);
    console.log(`  first column (${FIRST_COLUMN}):      ${fixed(first.ms)}`);
    const fresh = [];
    for (const name of NEW_COLUMNS) {
      const { ms } = await timed(base, headers, column(name));
      fresh.push(ms);
      console.log(`  new column ${name.padEnd(20)} ${fixed(ms)}`);
    }
    console.log(`  new columns: median ${fixed(median(fresh))}, max ${fixed(Math.max(...fresh))}`);
    const again = [];
    for (let round = 0; round < rounds; round++) {
      again.push((await timed(base, headers, column(FIRST_COLUMN, `?bins=${100 + round}&scale=log`))).ms);
    }
    console.log(`  a read column, new bins and scale: median ${fixed(median(again))} of ${rounds}`);
    const cache = path.join(dataDir, "jobs", job.id, "cache");
    const bytes = fs
      .readdirSync(cache, { recursive: true })
      .map((f) => path.join(cache, f))
      .filter((f) => fs.statSync(f).isFile())
      .reduce((sum, f) => sum + fs.statSync(f).size, 0);
    console.log(`  cache on disk: ${(bytes / 1e6).toFixed(1)} MB`);
  }
} finally {
  server.kill();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

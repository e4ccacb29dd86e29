// Load test of the server, run by hand after `npx tsc -b`: 100 concurrent clients list their jobs and poll one job's
// progress while an extraction runs; prints request latency percentiles, then streams a large upload and prints
// its rate and the server's peak RSS.
//   node bench/server/server-bench.mjs <capture> [--clients 100] [--seconds 20] [--interval 1000] [--upload-gb 1]
// Each client lists and polls, then waits --interval ms as a browser's polling does (0: back to back, a stress test);
// clients start spread over the first interval. How to read it: docs/api.md, "Performance"; figures:
// docs/performance.md.
// The capture is extracted while the clients poll: a few MB keep the worker busy for the run (merge copies of one
// with mergecap for more work).
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { Readable } from "node:stream";

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args.splice(at, 2)[1]) : fallback;
};
const clients = option("--clients", 100);
const seconds = option("--seconds", 20);
const interval = option("--interval", 1000);
const uploadGb = option("--upload-gb", 1);
const capture = args[0];
if (capture === undefined || !fs.existsSync(capture)) {
  console.error(
    "usage: node bench/server/server-bench.mjs <capture> [--clients N] [--seconds S] [--interval MS] [--upload-gb G]",
  );
  process.exit(2);
}

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-bench-"));
const server = spawn(
  process.execPath,
  ["apps/cli/bin/tracemill.js", "serve", "--port", "0", "--host", "127.0.0.1", "--data", dataDir],
  {
    stdio: ["ignore", "pipe", "inherit"],
  },
);
const base = await new Promise((resolve) => {
  server.stdout.on("data", (chunk) => {
    const match = /running at (http:\/\/\S+?)\/? /.exec(chunk.toString());
    if (match) resolve(match[1]);
  });
});

let peakRss = 0;
const sampler = setInterval(() => {
  try {
    const status = fs.readFileSync(`/proc/${server.pid}/status`, "utf8");
    peakRss = Math.max(peakRss, Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024);
  } catch {}
}, 100);

const headers = { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" };
const email = `bench-${Date.now()}@example.org`;
await fetch(`${base}/api/auth/register`, {
  method: "POST",
  headers,
  body: JSON.stringify({ userName: "bench", email, password: "bench password", Renewpassword: "bench password" }),
});
const login = await fetch(`${base}/api/auth/login`, {
  method: "POST",
  headers,
  body: JSON.stringify({ email, password: "bench password" }),
});
const cookie = login.headers.get("set-cookie").split(";")[0];
const authed = { ...headers, Cookie: cookie };

async function upload(name, body, size) {
  const boundary = "----tracemill-bench";
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const stream = Readable.from(
    (async function* () {
      yield head;
      yield* body;
      yield tail;
    })(),
  );
  const response = await fetch(`${base}/api/files`, {
    method: "POST",
    headers: {
      "Content-Type": `multipart/form-data; boundary=${boundary}`,
      "Content-Length": String(head.length + size + tail.length),
      "Sec-Fetch-Site": "same-origin",
      Cookie: cookie,
    },
    body: stream,
    duplex: "half",
  });
  return response.json();
}

const captureFile = await upload(path.basename(capture), fs.createReadStream(capture), fs.statSync(capture).size);
const createJob = async () =>
  (
    await (
      await fetch(`${base}/api/jobs`, {
        method: "POST",
        headers: authed,
        body: JSON.stringify({
          title: "bench",
          capability: "extract",
          inputs: { capture: { fileId: captureFile.id } },
        }),
      })
    ).json()
  ).id;
const jobIds = [];
for (let i = 0; i < 20; i++) jobIds.push(await createJob());

const latencies = [];
// The clients share this process: its own event-loop delay is printed so a slow bench is not taken for a slow server.
const benchDelay = monitorEventLoopDelay({ resolution: 5 });
benchDelay.enable();
let errors = 0;
const deadline = Date.now() + seconds * 1000;
async function client(index) {
  // Browsers poll on their own clocks: each client starts at a random point of the interval, not all in one burst.
  await new Promise((resolve) => setTimeout(resolve, Math.random() * interval));
  while (Date.now() < deadline) {
    for (const url of ["/api/jobs", `/api/jobs/${jobIds[index % jobIds.length]}`]) {
      const started = performance.now();
      const response = await fetch(`${base}${url}`, { headers: authed });
      await response.arrayBuffer();
      latencies.push(performance.now() - started);
      if (!response.ok) errors++;
    }
    await new Promise((resolve) => setTimeout(resolve, interval));
  }
}
await Promise.all(Array.from({ length: clients }, (_, i) => client(i)));
benchDelay.disable();
latencies.sort((a, b) => a - b);
const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(1);
const finished = (await (await fetch(`${base}/api/jobs`, { headers: authed })).json()).jobs.filter(
  (j) => j.status === "succeeded",
);
console.log(
  `${clients} clients every ${interval} ms, ${seconds} s, ${latencies.length} requests (${errors} errors): p50 ${at(0.5)} ms, p99 ${at(0.99)} ms, max ${at(1)} ms; ${finished.length}/${jobIds.length} extractions finished meanwhile; bench event-loop delay p99 ${(benchDelay.percentile(99) / 1e6).toFixed(1)} ms, max ${(benchDelay.max / 1e6).toFixed(1)} ms; load average ${os.loadavg()[0].toFixed(2)}`,
);

if (uploadGb > 0) {
  const size = Math.round(uploadGb * 1024 ** 3);
  const pcapHeader = fs.readFileSync(capture).subarray(0, 24);
  const chunk = Buffer.alloc(4 << 20);
  const body = (async function* () {
    yield pcapHeader;
    for (let sent = pcapHeader.length; sent < size; sent += chunk.length)
      yield chunk.subarray(0, Math.min(chunk.length, size - sent));
  })();
  peakRss = 0;
  const started = performance.now();
  const stored = await upload("big.pcap", body, size);
  const secondsTaken = (performance.now() - started) / 1000;
  console.log(
    `upload of ${(size / 1024 ** 3).toFixed(2)} GiB: ${(size / 1024 ** 2 / secondsTaken).toFixed(0)} MiB/s, stored ${stored.size} bytes, server peak RSS ${(peakRss / 1024 ** 2).toFixed(0)} MiB`,
  );
}

clearInterval(sampler);
server.kill("SIGTERM");
await new Promise((resolve) => server.once("exit", resolve));
fs.rmSync(dataDir, { recursive: true, force: true });

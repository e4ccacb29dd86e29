// Scale-out figures on PostgreSQL (run under bench/server/with-postgres.sh, after `npm run build:cli`):
//   claims [--workers 8] [--jobs 100] [--capture FILE]
//       8 idle `tracemill worker`s; jobs created through the API one at a time, each after the last ended; the claim
//       latency of each is its start (written by the claiming worker) minus its creation (written by serve), so it
//       includes the insert's commit and the wake-up; prints p50, p95, p99 and max.
//   speedup CAPTURE... [--rounds 3]
//       one extract job over the given captures (four for the figure), run with one worker and with two,
//       alternating, each round on a fresh pair of worker processes; prints each side's median wall time (creation
//       to end, as the job records them) and the ratio two/one.
// Every process is on this host; workers have their own data directories and share the storage directory.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const database = process.env.TRACEMILL_DATABASE_URL;
if (!database?.startsWith("postgres")) {
  console.error("run under bench/server/with-postgres.sh (TRACEMILL_DATABASE_URL=postgres://…)");
  process.exit(2);
}
const [mode, ...rest] = process.argv.slice(2);
const option = (name, fallback) => {
  const at = rest.indexOf(name);
  return at >= 0 ? rest.splice(at, 2)[1] : fallback;
};
const cli = path.resolve("apps/cli/bin/tracemill.js");
const scratch = (what) => fs.mkdtempSync(path.join(os.tmpdir(), `tracemill-bench-${what}-`));
const storage = scratch("storage");
const env = { ...process.env, TRACEMILL_STORAGE_DIR: storage };
delete env.NODE_EXTRA_CA_CERTS;
const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** Starts a process of the CLI and resolves once a line of its output matches. */
function start(args, ready) {
  const child = spawn(process.execPath, [cli, ...args], { env, stdio: ["ignore", "pipe", "inherit"] });
  children.add(child);
  child.on("exit", () => children.delete(child));
  return new Promise((resolve, reject) => {
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
      const match = ready.exec(output);
      if (match) resolve({ child, match });
    });
    child.once("exit", (code) => reject(new Error(`${args[0]} exited with ${code}: ${output}`)));
  });
}
const startWorker = () => start(["worker", "--data", scratch("worker"), "--concurrency", "1"], /is running jobs/);
/** Stops processes with SIGTERM (a pool hands its jobs back) and waits for them to end. */
const stopAll = (list) =>
  Promise.all(
    list.map(
      ({ child }) =>
        new Promise((resolve) => {
          if (child.exitCode !== null) return resolve();
          child.once("exit", resolve);
          child.kill("SIGTERM");
        }),
    ),
  );

const serve = await start(
  ["serve", "--port", "0", "--host", "127.0.0.1", "--workers", "0", "--data", scratch("serve"), "--database", database],
  /running at (http:\/\/\S+?)\/? /,
);
const base = serve.match[1];
let cookie = "";
async function call(method, url, body, headers = {}) {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: {
      "Sec-Fetch-Site": "same-origin",
      Cookie: cookie,
      ...headers,
      ...(body && !(body instanceof FormData) ? { "Content-Type": "application/json" } : {}),
    },
    body: body instanceof FormData ? body : body && JSON.stringify(body),
  });
  const set = response.headers.get("set-cookie");
  if (set) cookie = set.split(";")[0];
  return response.json();
}
const email = `bench-${Date.now()}@example.org`;
await call("POST", "/api/auth/register", {
  userName: "bench",
  email,
  password: "correct horse battery",
  Renewpassword: "correct horse battery",
});
await call("POST", "/api/auth/login", { email, password: "correct horse battery" });
async function upload(file) {
  const form = new FormData();
  form.append("file", await fs.openAsBlob(file), path.basename(file));
  return (await call("POST", "/api/files", form)).id;
}
async function finished(id) {
  for (;;) {
    const job = await call("GET", `/api/jobs/${id}`);
    if (["succeeded", "failed", "cancelled"].includes(job.status)) return job;
    await new Promise((r) => setTimeout(r, 100));
  }
}
const createJob = (captures) =>
  call("POST", "/api/jobs", {
    title: "bench",
    capability: "extract",
    params: {},
    inputs: { capture: captures.map((fileId) => ({ fileId })) },
  });
const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

/** Where a job over several captures spent its time: each part's run (from the job's creation) and the combining. */
async function timeline(job) {
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    const parts = await client.query(
      "select started_at, finished_at from jobs where parent_id = $1 order by part_index",
      [job.id],
    );
    const at = (iso) => ((Date.parse(iso) - Date.parse(job.createdAt)) / 1000).toFixed(2);
    const runs = parts.rows.map((r) => `${at(r.started_at)}–${at(r.finished_at)}`).join(", ");
    const lastPart = parts.rows.map((r) => Date.parse(r.finished_at)).reduce((a, b) => Math.max(a, b), 0);
    return ` (parts ${runs}; combining ${((Date.parse(job.finishedAt) - lastPart) / 1000).toFixed(2)} s)`;
  } finally {
    await client.end();
  }
}

if (mode === "claims") {
  const workerCount = Number(option("--workers", 8));
  const jobCount = Number(option("--jobs", 100));
  const capture = option("--capture", "test/fixtures/capture/benign/dns53.pcap");
  const fileId = await upload(capture);
  const workers = await Promise.all(Array.from({ length: workerCount }, startWorker));
  // One job at a time, each created once the one before has ended: every worker is idle when a job comes.
  const latencies = [];
  for (let i = 0; i < jobCount; i++) {
    const job = await finished((await createJob([fileId])).id);
    latencies.push(Date.parse(job.startedAt) - Date.parse(job.createdAt));
    await new Promise((r) => setTimeout(r, 50 + Math.random() * 100));
  }
  latencies.sort((a, b) => a - b);
  console.log(
    `claim latency, ${workerCount} idle workers, ${jobCount} jobs: p50 ${percentile(latencies, 50)} ms, p95 ${percentile(latencies, 95)} ms, p99 ${percentile(latencies, 99)} ms, max ${latencies.at(-1)} ms`,
  );
  await stopAll(workers);
} else if (mode === "speedup") {
  const rounds = Number(option("--rounds", 3));
  if (rest.length === 0) throw new Error("give the captures");
  const fileIds = [];
  for (const file of rest) fileIds.push(await upload(file));
  const times = { 1: [], 2: [] };
  for (let round = 0; round < rounds; round++) {
    for (const count of round % 2 === 0 ? [1, 2] : [2, 1]) {
      const workers = await Promise.all(Array.from({ length: count }, startWorker));
      const job = await finished((await createJob(fileIds)).id);
      if (job.status !== "succeeded") throw new Error(`job ${job.status}: ${job.error}`);
      const seconds = (Date.parse(job.finishedAt) - Date.parse(job.createdAt)) / 1000;
      times[count].push(seconds);
      console.log(`round ${round + 1}, ${count} worker(s): ${seconds.toFixed(2)} s${await timeline(job)}`);
      await stopAll(workers);
    }
  }
  const one = median(times[1]);
  const two = median(times[2]);
  console.log(
    `${rest.length} captures: one worker ${one.toFixed(2)} s, two ${two.toFixed(2)} s (medians), two/one ${(two / one).toFixed(2)}`,
  );
} else {
  console.error("usage: scale-out-bench.mjs claims|speedup …");
  process.exit(2);
}
await stopAll([serve]);

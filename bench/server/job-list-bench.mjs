// What My Jobs costs with many jobs: seeds a user's jobs (default 1,000) into a fresh server's SQLite database, then
// times the first page's API answer for several queries (the server in this process, real HTTP) and, in Chromium
// (Debian's, through playwright-core as e2e/ does), the time from navigation to the table's first page drawn.
// Run by hand after `npx tsc -b` and `npm run build -w @tracemill/web` (or a build elsewhere named by TRACEMILL_WEB_DIR):
//   node bench/server/job-list-bench.mjs [--jobs 1000] [--rounds 30] [--loads 9] [--no-browser]
// Figures: docs/performance.md ("Job lists").
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { buildApp, loadConfig } from "@tracemill/server";
import { openDatabase } from "../../apps/server/dist/db/connect.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const at = args.indexOf(name);
  return at >= 0 ? Number(args[at + 1]) : fallback;
};
const jobCount = option("--jobs", 1000);
const rounds = option("--rounds", 30);
const browser = !args.includes("--no-browser");
const LOADS = option("--loads", 9);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-list-bench-"));
const config = loadConfig(
  {
    dataDir,
    webDir: process.env.TRACEMILL_WEB_DIR ?? path.join(root, "apps/web/dist"),
    port: 0,
    host: "127.0.0.1",
    workers: 0,
  },
  {},
);
const app = await buildApp(config);
const base = (await app.listen({ port: 0, host: "127.0.0.1" })).replace(/\/$/, "");

const email = "bench@example.org";
const password = "correct horse battery";
const json = { "Content-Type": "application/json", "Sec-Fetch-Site": "same-origin" };
await fetch(`${base}/api/auth/register`, {
  method: "POST",
  headers: json,
  body: JSON.stringify({ userName: "bench", email, password, Renewpassword: password }),
});
const login = await fetch(`${base}/api/auth/login`, {
  method: "POST",
  headers: json,
  body: JSON.stringify({ email, password }),
});
const cookie = login.headers.get("set-cookie").split(";")[0];

await seed();

/** Finished jobs of every capability and outcome, each with an input, three outputs and a summary of a real size. */
async function seed() {
  const db = await openDatabase(config.database);
  const { id: ownerId } = await db
    .selectFrom("users")
    .select("id")
    .where("email_key", "=", email)
    .executeTakeFirstOrThrow();
  const capabilities = ["extract", "label", "ipt", "images", "sanitize", "merge"];
  const outcomes = [
    "succeeded",
    "succeeded",
    "succeeded",
    "succeeded",
    "succeeded",
    "succeeded",
    "failed",
    "cancelled",
  ];
  const started = Date.UTC(2026, 0, 1);
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < jobCount; i++) {
      const id = crypto.randomUUID();
      const fileId = crypto.randomUUID();
      const capability = capabilities[i % capabilities.length];
      const status = outcomes[i % outcomes.length];
      const sessions = 1000 + ((i * 7919) % 90_000);
      const created = new Date(started + i * 60_000).toISOString();
      const name = `${["web", "dns", "smb", "ssh"][i % 4]}-capture-${i}.pcap`;
      const summary = {
        input: { name, size: 50_000_000 + i, sha256: "ab".repeat(32), format: "pcap" },
        version: "0.1.0",
        options: { idleTimeout: 120, activeTimeout: 1800, length: "ip", features: ["tracemill"] },
        packets: { read: sessions * 9, decoded: sessions * 9, ignored: { nonIp: 12, truncated: 0, fragments: 3 } },
        sessions: { total: sessions, byProtocol: { tcp: sessions - 100, udp: 100 }, endReasons: { idle: 10, fin: 20 } },
        csv: { rows: sessions, columns: 50 },
        complete: true,
      };
      await trx
        .insertInto("files")
        .values({
          id: fileId,
          owner_id: ownerId,
          name,
          size: 50_000_000 + i,
          sha256: "ab".repeat(32),
          format: "pcap",
          compression: null,
          created_at: created,
        })
        .execute();
      const succeeded = status === "succeeded";
      await trx
        .insertInto("jobs")
        .values({
          id,
          owner_id: ownerId,
          title: `${capability} run ${i}`,
          description: "",
          public: i % 3 === 0 ? 1 : 0,
          capability,
          params: JSON.stringify(summary.options),
          status,
          percent: succeeded ? 100 : 40,
          stage: succeeded ? "done" : status,
          error: status === "failed" ? `${name}: damaged capture at byte 4116` : null,
          summary: succeeded ? JSON.stringify(summary) : null,
          cancel_requested: 0,
          attempts: 1,
          created_at: created,
          started_at: new Date(started + i * 60_000 + 1000).toISOString(),
          finished_at: new Date(started + i * 60_000 + 1000 + ((i * 104_729) % 600_000)).toISOString(),
          sessions: succeeded && capability !== "merge" ? sessions : null,
          output_bytes: succeeded ? sessions * 400 + 2000 : null,
          // Every tenth success is suspect, as result warnings would count it.
          warning_count: succeeded && i % 10 === 0 ? 1 : 0,
        })
        .execute();
      await trx
        .insertInto("job_inputs")
        .values({ job_id: id, role: "capture", file_id: fileId, position: 0 })
        .execute();
      if (!succeeded) continue;
      const outputs = [
        ["features.csv", "features-csv", sessions * 400],
        ["copy.pcap", "clean-pcap", 1000],
        ["summary.json", "summary-json", 1000],
      ];
      for (const [position, [output, kind, size]] of outputs.entries()) {
        await trx
          .insertInto("job_outputs")
          .values({ job_id: id, name: output, kind, size, sha256: "cd".repeat(32), position })
          .execute();
      }
    }
  });
  await db.destroy();
}

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const p95 = (values) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * 0.95))];

console.log(`${jobCount} jobs; first page's answer, ${rounds} rounds each (ms, median / p95), in-process server:`);
for (const query of [
  "",
  "?sort=size",
  "?sort=runtime&order=asc",
  "?sort=title",
  "?q=web",
  "?status=warning",
  "?offset=950",
]) {
  const times = [];
  let bytes = 0;
  let total = 0;
  for (let round = 0; round < rounds; round++) {
    const begun = performance.now();
    const response = await fetch(`${base}/api/jobs${query}`, { headers: { Cookie: cookie } });
    const body = await response.json();
    times.push(performance.now() - begun);
    bytes = JSON.stringify(body).length;
    total = body.total;
  }
  console.log(
    `  /api/jobs${query.padEnd(24)} ${median(times).toFixed(1).padStart(6)} / ${p95(times).toFixed(1).padStart(6)}  (${total} match, ${(bytes / 1024).toFixed(0)} KiB)`,
  );
}

if (browser) {
  const { chromium } = await import("playwright-core");
  const chrome = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  const [name, value] = cookie.split("=");
  // The same app with an empty list (a search that matches nothing) tells the app's own start from the list's cost.
  const cases = [
    { label: "empty list", look: "table", query: "?q=no-such-job", ready: { text: "No jobs match" } },
    { label: "table", look: "table", query: "", ready: { css: "table.job-table tbody tr", count: 50 } },
    { label: "cards", look: "cards", query: "", ready: { css: "article.job-card", count: 50 } },
  ];
  console.log(
    `Chromium, My Jobs from navigation to the first page drawn (ms; median of ${LOADS} loads after a cold one):`,
  );
  for (const each of cases) {
    const context = await chrome.newContext({ viewport: { width: 1366, height: 800 } });
    await context.addCookies([{ name, value, url: base }]);
    await context.addInitScript((chosen) => localStorage.setItem("tracemill.jobs-view", chosen), each.look);
    const loads = [];
    for (let round = 0; round < LOADS + 1; round++) loads.push(await load(context, each));
    await context.close();
    const cached = loads.slice(1);
    const at = (key) => median(cached.map((l) => l[key])).toFixed(0);
    console.log(
      `  ${each.label.padEnd(10)} wall ${at("drawn")} (cold ${loads[0].drawn.toFixed(0)}; scripts ran at ${at("booted")}, list answered at ${at("answered")}); ` +
        `main-thread CPU ${at("cpu")}: script ${at("script")}, style ${at("style")}, layout ${at("layout")}`,
    );
  }
  await chrome.close();
}

/**
 * One load of My Jobs in a fresh tab: wall times from the navigation's start (the app's scripts run, the list's answer
 * in, the first page drawn) and the renderer's main-thread CPU meanwhile (Chrome's ThreadTime and its script, style
 * and layout parts): on a shared machine wall times swing with the load, CPU time much less.
 */
async function load(context, { query, ready }) {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  const metrics = async () =>
    Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value * 1000]));
  const before = await metrics();
  await page.goto(`${base}/ui/dataSets${query}`, { waitUntil: "commit" });
  const drawn = await page.waitForFunction(
    ({ css, count, text }) => {
      if (text ? !document.body.textContent.includes(text) : document.querySelectorAll(css).length < count)
        return false;
      const [navigation] = performance.getEntriesByType("navigation");
      const list = performance.getEntriesByType("resource").find((e) => e.name.includes("/api/jobs?"));
      return {
        booted: navigation.domContentLoadedEventEnd,
        answered: list?.responseEnd ?? 0,
        drawn: performance.now(),
      };
    },
    ready,
    { polling: "raf", timeout: 60_000 },
  );
  const after = await metrics();
  const spent = (key) => after[key] - before[key];
  const result = {
    ...(await drawn.jsonValue()),
    cpu: spent("ThreadTime"),
    script: spent("ScriptDuration"),
    style: spent("RecalcStyleDuration"),
    layout: spent("LayoutDuration"),
  };
  await page.close();
  return result;
}

await app.close();
fs.rmSync(dataDir, { recursive: true, force: true });

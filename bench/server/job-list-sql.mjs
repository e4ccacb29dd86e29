// The job lists' SQL alone (apps/server's jobListRepository.page) on SQLite: one user's jobs with summaries of a real
// size, each sort's first and last page, a search and a filter; prints the minimum and median of 40 runs each.
// Run by hand after `npx tsc -b`:  node bench/server/job-list-sql.mjs [--jobs 1000,10000]
// Figures: docs/performance.md ("Job lists").
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { openDatabase } from "../../apps/server/dist/db/connect.js";
import { jobListRepository } from "../../apps/server/dist/repositories/job-list.js";

const at = process.argv.indexOf("--jobs");
const sizes = (at >= 0 ? process.argv[at + 1] : "1000,10000").split(",").map(Number);
const day = Date.UTC(2026, 0, 1);

for (const count of sizes) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-list-sql-"));
  const db = await openDatabase(path.join(dir, "bench.sqlite"));
  await db
    .insertInto("users")
    .values({ id: "u", user_name: "u", email: "u", email_key: "u", password_hash: "x", created_at: "x" })
    .execute();
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < count; i++) {
      const id = crypto.randomUUID();
      const fileId = crypto.randomUUID();
      const created = day + i * 60_000;
      await trx
        .insertInto("files")
        .values({
          id: fileId,
          owner_id: "u",
          name: `web-${i}.pcap`,
          size: 1,
          sha256: "a",
          format: "pcap",
          compression: null,
          created_at: "x",
        })
        .execute();
      await trx
        .insertInto("jobs")
        .values({
          id,
          owner_id: "u",
          title: `job ${i}`,
          description: "",
          public: i % 3 === 0 ? 1 : 0,
          capability: "extract",
          params: "{}",
          status: "succeeded",
          percent: 100,
          stage: "done",
          error: null,
          // About the size of an extraction's summary.
          summary: JSON.stringify({ sessions: { total: i }, padding: "x".repeat(1500) }),
          cancel_requested: 0,
          attempts: 1,
          created_at: new Date(created).toISOString(),
          started_at: new Date(created).toISOString(),
          finished_at: new Date(created + i * 7).toISOString(),
          sessions: (i * 13) % 1000,
          output_bytes: (i * 17) % 1000,
          warning_count: i % 10 === 0 ? 1 : 0,
        })
        .execute();
      await trx
        .insertInto("job_inputs")
        .values({ job_id: id, role: "capture", file_id: fileId, position: 0 })
        .execute();
    }
  });
  const list = jobListRepository(db);
  const cases = [
    ["newest first", {}],
    ["its last page", { offset: count - 50 }],
    ["by size", { sort: "size" }],
    ["its last page", { sort: "size", offset: count - 50 }],
    ["by runtime", { sort: "runtime" }],
    ["by title", { sort: "title", order: "asc" }],
    ["by status", { sort: "status" }],
    ["search web-1", { search: { text: "web-1", capabilities: [] } }],
    ["warnings only", { status: "warning" }],
  ];
  for (const [label, filter] of cases) {
    const times = [];
    for (let round = 0; round < 40; round++) {
      const begun = performance.now();
      await list.page({ ownerId: "u" }, { sort: "created", order: "desc", limit: 50, offset: 0, ...filter });
      times.push(performance.now() - begun);
    }
    times.sort((a, b) => a - b);
    console.log(
      `${String(count).padStart(6)} jobs, ${label.padEnd(14)} min ${times[0].toFixed(2)} ms, median ${times[20].toFixed(2)} ms`,
    );
  }
  await db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
}

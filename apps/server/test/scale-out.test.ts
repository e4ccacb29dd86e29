// Scale-out as deployed (docs/deployment.md): one `serve` that runs no jobs and two `tracemill worker`s, each with its
// own working, data and temporary directory, sharing only a PostgreSQL database and the storage directory, as on three
// hosts. A job over several captures spreads its parts over both workers; a worker killed -9 in the middle of a part
// (its whole process group, as a host going down) has that part run again by the other, and the outputs are the same
// bytes as a one-worker run's. And workers started at the same moment against a fresh database migrate it once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedApp, serve } from "../../cli/test/run-cli.js";
import { usePostgresCluster } from "./postgres-cluster.js";
import { Client, fixture, waitForStatus } from "./server-harness.js";
import { startWorkerProcess, until, type WorkerProcess } from "./worker-harness.js";

const scratch = (what: string) => fs.mkdtempSync(path.join(os.tmpdir(), `tracemill-${what}-`));
const CAPTURES = ["http-bro-org.pcap", "ssh-normal-kali.pcap", "wikipedia-browse.pcap", "nprint-port80.pcap"];

const cluster = usePostgresCluster();

/** A worker as on a host of its own: its own working, data and temporary directories; the database and storage shared. */
function startHost(name: string, database: string, storage: string): Promise<WorkerProcess> {
  return startWorkerProcess(
    scratch(`${name}-data`),
    1,
    { TRACEMILL_DATABASE_URL: database, TRACEMILL_STORAGE_DIR: storage, TMPDIR: scratch(`${name}-tmp`) },
    { cwd: scratch(`${name}-cwd`), group: true },
  );
}

describe("one serve and two workers sharing only PostgreSQL and the storage directory", () => {
  let database: string;
  let storage: string;
  let app: ServedApp;
  let client: Client;
  let db: pg.Client;
  const workers: WorkerProcess[] = [];
  const fileIds: string[] = [];

  beforeAll(async () => {
    database = await cluster().createDatabase();
    storage = scratch("storage");
    app = await serve(["--workers", "0", "--storage", storage, "--database", database], {
      TMPDIR: scratch("serve-tmp"),
    });
    workers.push(...(await Promise.all([startHost("a", database, storage), startHost("b", database, storage)])));
    db = new pg.Client({ connectionString: database });
    await db.connect();
    client = new Client(app.url);
    await client.signUp("Lab");
    for (const name of CAPTURES) fileIds.push((await client.upload(name, fixture(name))).body.id);
  }, 120_000);
  afterAll(async () => {
    await db?.end();
    await Promise.all(workers.map((w) => w.stop()));
    await app?.stop();
  });

  async function startJob(): Promise<string> {
    const created = await client.call("POST", "/api/jobs", {
      title: "four captures",
      capability: "extract",
      params: { features: ["tracemill", "cic"] },
      inputs: { capture: fileIds.map((fileId) => ({ fileId })) },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.id;
  }

  async function finishedJob(id: string) {
    const job = await waitForStatus(client, id, ["succeeded", "failed", "cancelled"], 120_000);
    expect(job.error).toBeNull();
    expect(job.status).toBe("succeeded");
    return job;
  }

  /** Who ran each part last, and how often each was started, in the parts' order. */
  const partRuns = async (jobId: string) =>
    (
      await db.query<{ worker_id: string; attempts: number }>(
        "select worker_id, attempts from jobs where parent_id = $1 order by part_index",
        [jobId],
      )
    ).rows;

  /** Every output's name and SHA-256: equal lists mean byte-for-byte equal outputs. */
  const digests = (job: { outputs: { name: string; sha256: string }[] }) =>
    job.outputs.map((o) => `${o.name} ${o.sha256}`).sort();

  let reference: string[] = [];

  it("spreads the captures of one job over both workers", async () => {
    const job = await finishedJob(await startJob());
    const runs = await partRuns(job.id);
    expect(runs).toHaveLength(4);
    expect(new Set(runs.map((r) => r.worker_id))).toEqual(new Set(workers.map((w) => w.id)));
    reference = digests(job);
    expect(reference.some((line) => line.startsWith("features.csv "))).toBe(true);
  });

  it("runs a part again on the other worker when its worker is killed -9 mid-part; the outputs are the same", async () => {
    const [doomed, survivor] = workers;
    const id = await startJob();
    let claimed = -1;
    await until(
      "a part to run on the first worker",
      async () => {
        const runs = await db.query<{ part_index: number }>(
          "select part_index from jobs where parent_id = $1 and status = 'running' and worker_id = $2",
          [id, doomed.id],
        );
        if (runs.rows.length === 0) return false;
        claimed = runs.rows[0].part_index;
        // Frozen at once (it cannot finish the part meanwhile), then killed: a host going down mid-part.
        process.kill(-Number(doomed.process.pid), "SIGSTOP");
        return true;
      },
      60_000,
    );
    const state = await db.query("select status from jobs where parent_id = $1 and part_index = $2", [id, claimed]);
    expect(state.rows[0].status).toBe("running");
    process.kill(-Number(doomed.process.pid), "SIGKILL");

    const job = await finishedJob(id);
    const runs = await partRuns(id);
    expect(runs[claimed]).toEqual({ worker_id: survivor.id, attempts: 2 });
    expect(digests(job)).toEqual(reference);
  });

  it("gives the same outputs with one worker left", async () => {
    const job = await finishedJob(await startJob());
    expect(new Set((await partRuns(job.id)).map((r) => r.worker_id))).toEqual(new Set([workers[1].id]));
    expect(digests(job)).toEqual(reference);
  });
});

describe("workers started at the same moment against a fresh database", () => {
  const started: WorkerProcess[] = [];
  afterAll(async () => {
    await Promise.all(started.map((w) => w.stop()));
  });

  const fresh = [
    { name: "a SQLite file", database: async () => path.join(scratch("db"), "tracemill.sqlite") },
    { name: "PostgreSQL", database: () => cluster().createDatabase() },
  ];
  for (const backend of fresh) {
    it(`both run, and ${backend.name} is migrated once`, async () => {
      const database = await backend.database();
      const storage = scratch("storage");
      const pair = await Promise.all([startHost("x", database, storage), startHost("y", database, storage)]);
      started.push(...pair);
      expect(pair.every((w) => w.process.exitCode === null)).toBe(true);
      const names = await migrationNames(database);
      expect(names.length).toBeGreaterThan(5);
      expect(new Set(names).size).toBe(names.length);
      await until("both to stay up a moment", async () => {
        await new Promise((r) => setTimeout(r, 500));
        return pair.every((w) => w.process.exitCode === null);
      });
    });
  }
});

/** The migrations recorded in the database (Kysely's table), read without Tracemill's code. */
async function migrationNames(database: string): Promise<string[]> {
  if (!database.startsWith("postgres")) {
    const { default: Sqlite } = await import("better-sqlite3");
    const file = new Sqlite(database, { readonly: true });
    try {
      return (file.prepare("select name from kysely_migration").all() as { name: string }[]).map((r) => r.name);
    } finally {
      file.close();
    }
  }
  const client = new pg.Client({ connectionString: database });
  await client.connect();
  try {
    return (await client.query<{ name: string }>("select name from kysely_migration")).rows.map((r) => r.name);
  } finally {
    await client.end();
  }
}

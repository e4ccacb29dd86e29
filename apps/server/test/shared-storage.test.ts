// `serve` and `tracemill worker` as on two hosts: each with its own data directory and temporary directory, sharing
// only the database and the storage directory. A job's files are written where both see them, under final names only
// when complete; a worker killed in the middle of writing leaves nothing that passes for an output.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../test/helpers/fixtures.js";
import { runCli, type ServedApp, serve } from "../../cli/test/run-cli.js";
import { loadConfig } from "../src/config.js";
import { usePostgresCluster } from "./postgres-cluster.js";
import { Client, fixture, waitForStatus } from "./server-harness.js";
import { runsOf, startWorkerProcess, until, type WorkerProcess, workerEngine } from "./worker-harness.js";

const scratch = (what: string) => fs.mkdtempSync(path.join(os.tmpdir(), `tracemill-${what}-`));

/** Every file under `dir`, relative to it. */
const filesUnder = (dir: string) =>
  fs
    .readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => !entry.isDirectory())
    .map((entry) => path.relative(dir, path.join(entry.parentPath, entry.name)))
    .sort();

describe("the storage directory's configuration", () => {
  it("is --storage, else TRACEMILL_STORAGE_DIR, else the data directory; the rulesets are kept in it", () => {
    const env = { TRACEMILL_STORAGE_DIR: "/mnt/env" };
    expect(loadConfig({ dataDir: "/srv/tm", storageDir: "/mnt/option" }, env).storageDir).toBe("/mnt/option");
    expect(loadConfig({ dataDir: "/srv/tm" }, env).storageDir).toBe("/mnt/env");
    expect(loadConfig({ dataDir: "/srv/tm" }, {}).storageDir).toBe("/srv/tm");
    expect(loadConfig({ dataDir: "/srv/tm" }, { TRACEMILL_STORAGE_DIR: "" }).storageDir).toBe("/srv/tm");
    expect(loadConfig({ dataDir: "/srv/tm" }, env).rulesetsDir).toBe("/mnt/env/rulesets");
    // The SQLite file stays in the data directory: it is not for a shared mount.
    expect(loadConfig({ dataDir: "/srv/tm" }, env).database).toBe("/srv/tm/tracemill.sqlite");
  });
});

/** A storage directory and a database (by default a SQLite file) shared by a `serve` and workers, nothing else. */
function sharedSetup(database = path.join(scratch("db"), "tracemill.sqlite")) {
  const storage = scratch("storage");
  const workerData = scratch("worker-data");
  const temps = { serve: scratch("serve-tmp"), worker: scratch("worker-tmp") };
  const workerEnv = { TRACEMILL_STORAGE_DIR: storage, TRACEMILL_DATABASE_URL: database, TMPDIR: temps.worker };
  const serveArgs = ["--workers", "0", "--storage", storage, "--database", database];
  return { storage, database, workerData, temps, workerEnv, serveArgs };
}

const cluster = usePostgresCluster();

const backends: { name: string; database: () => Promise<string | undefined> }[] = [
  { name: "a SQLite file", database: async () => undefined },
  { name: "PostgreSQL", database: () => cluster().createDatabase() },
];

for (const backend of backends) {
  describe(`serve and a worker sharing only ${backend.name} and the storage directory`, () => {
    let shared: ReturnType<typeof sharedSetup>;
    let app: ServedApp;
    let worker: WorkerProcess | null = null;

    beforeAll(async () => {
      shared = sharedSetup(await backend.database());
      app = await serve(shared.serveArgs, { TMPDIR: shared.temps.serve });
    });
    afterAll(async () => {
      await worker?.stop();
      await app?.stop();
    });

    it("runs an uploaded capture's extract in the worker; the download equals `tracemill extract` of the file", async () => {
      const client = new Client(app.url);
      await client.signUp("Cluster");
      const upload = await client.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"));
      expect(upload.status).toBe(201);
      const created = await client.call("POST", "/api/jobs", {
        title: "extract on another host",
        capability: "extract",
        params: {},
        inputs: { capture: { fileId: upload.body.id } },
      });
      expect(created.status).toBe(201);
      worker = await startWorkerProcess(shared.workerData, 1, shared.workerEnv);
      const job = await waitForStatus(client, created.body.id, ["succeeded", "failed"], 60_000);
      expect(job.error).toBeNull();
      expect(job.status).toBe("succeeded");

      const downloaded = Buffer.from(
        await (await client.raw("GET", `/api/jobs/${job.id}/outputs/features.csv`)).arrayBuffer(),
      );
      const direct = path.join(scratch("direct"), "features.csv");
      const cli = runCli(["extract", fixturePath("raw101_ipv4.pcap"), "-o", direct]);
      expect(cli.status).toBe(0);
      expect(downloaded.length).toBeGreaterThan(0);
      expect(downloaded.equals(fs.readFileSync(direct))).toBe(true);

      // The job's files are in the storage directory alone, under their final names; nothing in either data directory
      // or temporary directory.
      expect(filesUnder(shared.storage)).toEqual(
        [`files/${upload.body.id}`, `jobs/${job.id}/out/features.csv`, `jobs/${job.id}/out/summary.json`].sort(),
      );
      expect(
        fs.readFileSync(path.join(shared.storage, "files", upload.body.id)).equals(fixture("raw101_ipv4.pcap")),
      ).toBe(true);
      expect(filesUnder(app.dataDir)).toEqual([]);
      expect(filesUnder(shared.workerData)).toEqual([]);
      expect(filesUnder(shared.temps.serve)).toEqual([]);
      expect(filesUnder(shared.temps.worker)).toEqual([]);
      // What users see names no directory of either host.
      expect(JSON.stringify(job)).not.toContain(shared.storage);
    });
  });
}

describe("a worker killed while writing a job's outputs", () => {
  const shared = sharedSetup();
  const runLog = path.join(scratch("runs"), "runs.log");
  const env = { TRACEMILL_TEST_ENGINE_MODULE: workerEngine, TRACEMILL_TEST_RUN_LOG: runLog };
  const workers: WorkerProcess[] = [];
  let app: ServedApp;

  beforeAll(async () => {
    app = await serve(shared.serveArgs, { TMPDIR: shared.temps.serve, ...env });
  });
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((w) => w.stop()));
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("leaves no output under a final name; the job is queued again, and the next run's outputs are whole", async () => {
    const client = new Client(app.url);
    await client.signUp("Killed");
    const capture = fixture("raw101_ipv4.pcap");
    const fileId = (await client.upload("raw101_ipv4.pcap", capture)).body.id;
    const created = await client.call("POST", "/api/jobs", {
      title: "killed mid-write",
      capability: "extract",
      params: { activeTimeout: 500 },
      inputs: { capture: { fileId } },
    });
    const id: string = created.body.id;
    const jobDir = path.join(shared.storage, "jobs", id);

    const doomed = await startWorkerProcess(shared.workerData, 1, { ...shared.workerEnv, ...env });
    workers.push(doomed);
    // worker-engine.mjs has begun features.csv (its header alone) and waits before writing the rest.
    await until("the run to begin its features.csv", () =>
      filesUnder(shared.storage).some((file) => file.startsWith(`jobs/${id}/`) && file.endsWith("/features.csv")),
    );
    expect(runsOf(runLog)).toEqual([{ jobId: id, runner: doomed.process.pid }]);
    doomed.process.kill("SIGKILL");

    const requeued = await waitForStatus(client, id, ["queued", "succeeded", "failed"], 15_000);
    expect(requeued.status).toBe("queued");
    expect(requeued.outputs).toEqual([]);
    expect(fs.existsSync(path.join(jobDir, "out"))).toBe(false);
    expect((await client.raw("GET", `/api/jobs/${id}/outputs/features.csv`)).status).toBe(404);
    // The half file is there, under the run's temporary directory only.
    const half = filesUnder(shared.storage).filter((file) => file.endsWith("/features.csv"));
    expect(half).toHaveLength(1);
    expect(half[0]).toMatch(new RegExp(`^jobs/${id}/out\\.[0-9a-f]{12}\\.part/features\\.csv$`));
    expect(fs.readFileSync(path.join(shared.storage, half[0]), "utf8")).toBe("input,bytes\n");

    const rescuer = await startWorkerProcess(shared.workerData, 1, { ...shared.workerEnv, ...env });
    workers.push(rescuer);
    const job = await waitForStatus(client, id, ["succeeded", "failed"], 30_000);
    expect(job.status).toBe("succeeded");
    const sha256 = crypto.createHash("sha256").update(capture).digest("hex");
    const csv = await (await client.raw("GET", `/api/jobs/${id}/outputs/features.csv`)).text();
    expect(csv).toBe(`input,bytes\n${sha256},${capture.length}\n`);
    // The dead run's directory went when the next run began; only the published outputs remain.
    expect(filesUnder(jobDir)).toEqual(["out/copy.pcap", "out/features.csv", "out/summary.json"]);
  });
});

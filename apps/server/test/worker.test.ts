// `tracemill worker` processes beside `tracemill serve --workers 0` on one data directory: a job submitted over HTTP
// runs in a worker, two workers never run the same job, a killed worker's job is re-queued and finished by another,
// and progress and cancel travel between the processes through the database — on SQLite and on PostgreSQL (a
// throw-away cluster), where an idle worker also hears of a new job at once.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli, type ServedApp, serve } from "../../cli/test/run-cli.js";
import { usePostgresCluster } from "./postgres-cluster.js";
import { Client, fixture, waitForStatus } from "./server-harness.js";
import { runsOf, startWorkerProcess, until, type WorkerProcess, workerEngine } from "./worker-harness.js";

/** Reads a job's event stream, handing each `job` event to `onJob` until it returns true or the stream ends. */
async function followEvents(
  response: Response,
  onJob: (job: { status: string; progress: { percent: number } }) => boolean,
) {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end = buffer.indexOf("\n\n");
    while (end >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      end = buffer.indexOf("\n\n");
      const data = /^event: job\ndata: (.*)$/m.exec(block);
      if (data && onJob(JSON.parse(data[1]))) {
        await reader.cancel();
        return;
      }
    }
  }
}

describe("serve --workers 0 with a tracemill worker", () => {
  let app: ServedApp;
  let worker: WorkerProcess | null = null;

  beforeAll(async () => {
    app = await serve(["--workers", "0"]);
  });
  afterAll(async () => {
    await worker?.stop();
    await app?.stop();
  });

  it("runs nothing itself; a worker on its data directory completes an extract job on the real engine", async () => {
    const client = new Client(app.url);
    await client.signUp("Lab");
    const capture = (await client.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"))).body.id;
    const created = await client.call("POST", "/api/jobs", {
      title: "extract in a worker",
      capability: "extract",
      params: {},
      inputs: { capture: { fileId: capture } },
    });
    expect(created.status).toBe(201);
    await new Promise((r) => setTimeout(r, 1500));
    expect((await client.call("GET", `/api/jobs/${created.body.id}`)).body.status).toBe("queued");

    worker = await startWorkerProcess(app.dataDir, 1);
    const job = await waitForStatus(client, created.body.id, ["succeeded", "failed"], 30_000);
    expect(job.error).toBeNull();
    expect(job.outputs.map((o: { name: string }) => o.name).sort()).toEqual(["features.csv", "summary.json"]);
    const csv = (await (await client.raw("GET", `/api/jobs/${job.id}/outputs/features.csv`)).text()).trim();
    expect(csv.split("\n")[0].split(",")).toContain("flowduration");
    expect(csv.split("\n").length - 1).toBe(job.summary.csv.rows);
    expect(job.summary.csv.rows).toBeGreaterThan(0);
  });

  it("refuses a concurrency below 1 as bad usage", () => {
    const result = runCli(["worker", "--data", app.dataDir, "--concurrency", "0"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/--concurrency.*at least 1/);
  });

  it("refuses a PostgreSQL database it cannot reach in one line, its password hidden", () => {
    const nowhere = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-no-pg-"));
    const url = `postgres://lab:secret@localhost/tracemill?host=${encodeURIComponent(nowhere)}`;
    const result = runCli(["worker", "--data", app.dataDir, "--database", url]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(
      /^tracemill: cannot use the database postgres:\/\/lab:\*\*\*@localhost\/tracemill\?host=\S+: .*ENOENT.*\n$/,
    );
    expect(result.stderr).not.toContain("secret");
  });
});

const cluster = usePostgresCluster();

/**
 * The environment naming a new database (none for SQLite: the data directory's file), and the longest an idle worker
 * may take to start a job queued by another process: a poll (1 s) on SQLite, a signal on PostgreSQL, whose pools
 * poll only every 5 s.
 */
const backends: { name: string; database: () => Promise<NodeJS.ProcessEnv>; wakeMs: number }[] = [
  { name: "SQLite", database: async () => ({}), wakeMs: 2000 },
  {
    name: "PostgreSQL",
    database: async () => ({ TRACEMILL_DATABASE_URL: await cluster().createDatabase() }),
    wakeMs: 1000,
  },
];

for (const backend of backends) {
  describe(`several workers on one queue, on ${backend.name}`, () => {
    let app: ServedApp;
    let client: Client;
    let captureId: string;
    let runLog: string;
    let workerEnv: NodeJS.ProcessEnv;
    const workers: WorkerProcess[] = [];

    const startWorker = async (concurrency = 1) => {
      const worker = await startWorkerProcess(app.dataDir, concurrency, workerEnv);
      workers.push(worker);
      return worker;
    };
    const create = async (activeTimeout: number): Promise<string> => {
      const created = await client.call("POST", "/api/jobs", {
        title: `fake ${activeTimeout}`,
        capability: "extract",
        params: { activeTimeout },
        inputs: { capture: { fileId: captureId } },
      });
      expect(created.status).toBe(201);
      return created.body.id;
    };

    beforeAll(async () => {
      const database = await backend.database();
      app = await serve(["--workers", "0"], { TRACEMILL_TEST_ENGINE_MODULE: workerEngine, ...database });
      runLog = path.join(app.dataDir, "runs.log");
      workerEnv = { TRACEMILL_TEST_ENGINE_MODULE: workerEngine, TRACEMILL_TEST_RUN_LOG: runLog, ...database };
      client = new Client(app.url);
      await client.signUp("Workers");
      captureId = (await client.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"))).body.id;
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
    });
    afterAll(async () => {
      await app?.stop();
    });

    it("has an idle worker claim a job queued by the server within a poll, or at once on a signal", async () => {
      const worker = await startWorker();
      const waits: number[] = [];
      for (let i = 0; i < 3; i++) {
        // At a random moment of the worker's poll cycle.
        await new Promise((resolve) => setTimeout(resolve, 200 + Math.random() * 1000));
        const id = await create(30);
        const queuedAt = Date.now();
        await until("the job to be claimed", async () => {
          const status = (await client.call("GET", `/api/jobs/${id}`)).body.status;
          return status !== "queued";
        });
        waits.push(Date.now() - queuedAt);
        expect((await waitForStatus(client, id, ["succeeded", "failed"], 30_000)).status).toBe("succeeded");
        expect(runsOf(runLog).filter((run) => run.jobId === id)).toEqual([{ jobId: id, runner: worker.process.pid }]);
      }
      expect(Math.max(...waits)).toBeLessThan(backend.wakeMs);
    });

    it("runs each of several jobs exactly once, spread over two workers", async () => {
      const [a, b] = [await startWorker(2), await startWorker(2)];
      const ids: string[] = [];
      for (let i = 0; i < 8; i++) ids.push(await create(30));
      const done = await Promise.all(ids.map((id) => waitForStatus(client, id, ["succeeded", "failed"], 30_000)));
      expect(done.map((job) => job.status)).toEqual(ids.map(() => "succeeded"));
      const runs = runsOf(runLog).filter((run) => ids.includes(run.jobId));
      expect(runs.map((run) => run.jobId).sort()).toEqual([...ids].sort());
      const runners = new Set(runs.map((run) => run.runner));
      expect(runners).toEqual(new Set([a.process.pid, b.process.pid]));
    });

    it("queues again the job of a killed worker; another worker runs it to the end", async () => {
      const doomed = await startWorker();
      const id = await create(200);
      await until("the job to start in the first worker", () =>
        runsOf(runLog).some((run) => run.jobId === id && run.runner === doomed.process.pid),
      );
      doomed.process.kill("SIGKILL");
      // The server, which runs no jobs, sees the worker's process gone and puts its job back in the queue.
      const requeued = await waitForStatus(client, id, ["queued"], 10_000);
      expect(requeued.progress.stage).toBe("queued again: its worker stopped");
      const rescuer = await startWorker();
      const job = await waitForStatus(client, id, ["succeeded", "failed"], 30_000);
      expect(job.status).toBe("succeeded");
      expect(job.outputs).toHaveLength(3);
      const runs = runsOf(runLog).filter((run) => run.jobId === id);
      expect(runs.map((run) => run.runner)).toEqual([doomed.process.pid, rescuer.process.pid]);
    });

    it("hands a job back to the queue at once when its worker is stopped with SIGTERM", async () => {
      const leaving = await startWorker();
      const id = await create(200);
      await until("the job to start in the leaving worker", () =>
        runsOf(runLog).some((run) => run.jobId === id && run.runner === leaving.process.pid),
      );
      await leaving.stop();
      const requeued = (await client.call("GET", `/api/jobs/${id}`)).body;
      expect([requeued.status, requeued.progress.stage]).toEqual(["queued", "queued again: its worker stopped"]);
      const next = await startWorker();
      expect((await waitForStatus(client, id, ["succeeded", "failed"], 30_000)).status).toBe("succeeded");
      expect(
        runsOf(runLog)
          .filter((run) => run.jobId === id)
          .map((run) => run.runner),
      ).toEqual([leaving.process.pid, next.process.pid]);
    });

    it("starts a job at most 3 times when its worker keeps dying; a worker stopped in good order does not count", async () => {
      const id = await create(3000);
      const runsOfJob = () => runsOf(runLog).filter((run) => run.jobId === id);
      const startedIn = (worker: WorkerProcess) => () => runsOfJob().some((run) => run.runner === worker.process.pid);
      // Handed back on SIGTERM: not one of the three.
      const leaving = await startWorker();
      await until("the job to start in the worker that leaves", startedIn(leaving));
      await leaving.stop();
      for (let run = 1; run <= 3; run++) {
        const doomed = await startWorker();
        await until(`run ${run} to start`, startedIn(doomed));
        doomed.process.kill("SIGKILL");
        await new Promise((resolve) => doomed.process.once("exit", resolve));
        // The server sees the worker gone and queues the job again, until its third run.
        const next = run < 3 ? ["queued"] : ["failed"];
        const job = await waitForStatus(client, id, next, 10_000);
        if (run < 3) expect(job.progress.stage).toBe("queued again: its worker stopped");
        else {
          expect(job.error).toMatch(
            /^The job's process ended unexpectedly 3 times: its worker stopped while running it/,
          );
          expect(job.outputs).toEqual([]);
          expect(fs.existsSync(path.join(app.dataDir, "jobs", id))).toBe(false);
        }
      }
      // A worker started now finds nothing to run: the job stays failed after more than two of its polls.
      const idle = await startWorker();
      await new Promise((resolve) => setTimeout(resolve, 2500));
      expect((await client.call("GET", `/api/jobs/${id}`)).body.status).toBe("failed");
      expect(runsOfJob().map((run) => run.runner)).toEqual([
        leaving.process.pid,
        ...workers.slice(-4, -1).map((worker) => worker.process.pid),
      ]);
      expect(runsOfJob().some((run) => run.runner === idle.process.pid)).toBe(false);
    });

    it("shows a worker's progress in the server's event stream, and a cancel reaches the worker", async () => {
      const worker = await startWorker();
      const id = await create(300);
      const stream = await client.raw("GET", `/api/jobs/${id}/events`);
      expect(stream.status).toBe(200);
      await followEvents(stream, (job) => job.status === "running" && job.progress.percent > 0);
      expect(
        runsOf(runLog)
          .filter((run) => run.jobId === id)
          .map((run) => run.runner),
      ).toEqual([worker.process.pid]);

      const watching = await client.raw("GET", `/api/jobs/${id}/events`);
      const seen: string[] = [];
      const ended = followEvents(watching, (job) => {
        seen.push(job.status);
        return false;
      });
      const started = Date.now();
      expect((await client.call("POST", `/api/jobs/${id}/cancel`)).status).toBe(200);
      const cancelled = await waitForStatus(client, id, ["cancelled", "succeeded"]);
      expect(cancelled.status).toBe("cancelled");
      // Stopped by its abort signal after the worker saw the request, well before the run's 3 s would have ended.
      expect(Date.now() - started).toBeLessThan(2500);
      expect(cancelled.outputs).toEqual([]);
      expect(fs.existsSync(path.join(app.dataDir, "jobs", id, "out"))).toBe(false);
      await ended;
      expect(seen.at(-1)).toBe("cancelled");
    });
  });
}

// The worker pool: claims queued jobs from the database and runs each in its own process, up to `workers` at once.
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Capability, InputRole } from "@tracemill/contracts";
import type { Db } from "../db/connect.js";
import { jobsRepository } from "../repositories/jobs.js";
import type { FileStore } from "../storage/file-store.js";
import type { ProgressHub } from "./progress-hub.js";
import type { FromWorker, RunMessage } from "./worker-messages.js";

const workerEntry = fileURLToPath(new URL("./worker-process.js", import.meta.url));
const POLL_MS = 1000;
const CANCEL_GRACE_MS = 5000;

interface Running {
  child: ChildProcess;
  cancelled: boolean;
  finished: Promise<void>;
}

export interface RunnerOptions {
  workers: number;
  testEngineModule: string | null;
}

export function jobRunner(db: Db, store: FileStore, hub: ProgressHub, options: RunnerOptions) {
  const jobs = jobsRepository(db);
  const running = new Map<string, Running>();
  let timer: NodeJS.Timeout | null = null;
  let polling = false;
  let stopped = false;

  const now = () => new Date().toISOString();

  async function finish(jobId: string, changes: Parameters<typeof jobs.update>[1]): Promise<void> {
    await jobs.transition(jobId, ["running"], { ...changes, finished_at: now() });
    hub.changed(jobId);
  }

  async function launch(jobId: string): Promise<void> {
    const job = await jobs.byId(jobId);
    if (!job) return;
    const inputs: RunMessage["inputs"] = {};
    for (const input of await jobs.inputsOf([jobId])) {
      inputs[input.role as InputRole] = { path: store.filePath(input.id), compression: input.compression };
    }
    const outDir = store.outputDir(jobId);
    fs.rmSync(outDir, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    const child = fork(workerEntry, [], { stdio: ["ignore", "inherit", "inherit", "ipc"], execArgv: [] });
    let outcome: FromWorker | null = null;
    let lastWrite = Promise.resolve();
    const entry: Running = { child, cancelled: false, finished: Promise.resolve() };
    entry.finished = new Promise<void>((resolve) => {
      child.on("message", (message: FromWorker) => {
        if (message.type === "progress") {
          const percent = Math.max(0, Math.min(100, message.percent));
          lastWrite = lastWrite
            .then(() => jobs.transition(jobId, ["running"], { percent, stage: message.stage }))
            .then(() => hub.changed(jobId));
        } else {
          outcome = message;
        }
      });
      let settled = false;
      const onEnd = (code: number | null, signal: NodeJS.Signals | null) => {
        if (settled) return;
        settled = true;
        const settle = async () => {
          await lastWrite;
          running.delete(jobId);
          if (stopped) return;
          const result = outcome as FromWorker | null;
          if (entry.cancelled) {
            fs.rmSync(outDir, { recursive: true, force: true });
            await finish(jobId, { status: "cancelled", stage: "cancelled" });
          } else if (result?.type === "done") {
            const outputs = result.outputs.map((o) => {
              // Output names become download URLs and paths: only plain names written into outDir count.
              if (o.name !== path.basename(o.name)) throw new Error(`bad output name ${o.name}`);
              const size = fs.statSync(path.join(outDir, o.name)).size;
              return { job_id: jobId, name: o.name, kind: o.kind, size, sha256: o.sha256 };
            });
            await jobs.setOutputs(jobId, outputs);
            await finish(jobId, {
              status: "succeeded",
              percent: 100,
              stage: "done",
              summary: JSON.stringify(result.summary),
            });
          } else {
            const message =
              result?.type === "failed"
                ? result.message
                : `The job stopped unexpectedly (worker ${signal ? `killed by ${signal}` : `exit code ${code}`}). Try again; if it happens again, tell the administrator.`;
            await finish(jobId, { status: "failed", error: message, stage: "failed" });
          }
          wake();
        };
        settle()
          .catch((error: unknown) =>
            finish(jobId, {
              status: "failed",
              stage: "failed",
              error: `The job's results could not be stored: ${String(error)}`,
            }),
          )
          .then(resolve, resolve);
      };
      child.on("exit", onEnd);
      // A worker that cannot even start (no memory, no processes left) fails its job, not the server.
      child.on("error", (error) => {
        outcome ??= { type: "failed", code: "INTERNAL", message: `The job's worker could not run: ${error.message}` };
        if (child.pid === undefined) onEnd(null, null);
      });
    });
    running.set(jobId, entry);
    const message: RunMessage = {
      type: "run",
      jobId,
      capability: job.capability as Capability,
      params: JSON.parse(job.params) as Record<string, unknown>,
      inputs,
      outDir,
      workDir: store.workDir(jobId),
      testEngineModule: options.testEngineModule,
    };
    child.send(message);
    // A cancel that came between claiming the job and starting its worker found nothing to stop: honour it now.
    if ((await jobs.byId(jobId))?.cancel_requested === 1) void cancel(jobId);
  }

  /** Asks a running job's worker to stop; it is killed if it does not within a few seconds. */
  async function cancel(jobId: string): Promise<void> {
    const entry = running.get(jobId);
    if (!entry) return;
    entry.cancelled = true;
    if (entry.child.connected) entry.child.send({ type: "cancel" });
    const kill = setTimeout(() => entry.child.kill("SIGKILL"), CANCEL_GRACE_MS);
    await entry.finished;
    clearTimeout(kill);
  }

  async function poll(): Promise<void> {
    if (polling || stopped) return;
    polling = true;
    try {
      while (!stopped && running.size < options.workers) {
        const [next] = await jobs.nextQueued(1);
        if (!next) break;
        const claimed = await jobs.transition(next.id, ["queued"], {
          status: "running",
          started_at: now(),
          percent: 0,
          stage: "starting",
        });
        if (!claimed) continue;
        hub.changed(next.id);
        await launch(next.id).catch(async (error: unknown) => {
          running.delete(next.id);
          await finish(next.id, {
            status: "failed",
            stage: "failed",
            error: `The job could not start: ${String(error)}`,
          });
        });
      }
    } finally {
      polling = false;
    }
  }

  function wake(): void {
    setImmediate(() => {
      poll().catch(() => {});
    });
  }

  return {
    async start(): Promise<void> {
      await jobs.requeueInterrupted(now());
      timer = setInterval(wake, POLL_MS);
      wake();
    },
    wake,
    cancel,
    /** Stops the pool: workers are killed, their jobs stay "running" in the database and are queued again at start. */
    async stop(): Promise<void> {
      stopped = true;
      if (timer) clearInterval(timer);
      const all = [...running.values()];
      for (const entry of all) entry.child.kill("SIGKILL");
      await Promise.all(all.map((entry) => entry.finished));
    },
  };
}

export type JobRunner = ReturnType<typeof jobRunner>;

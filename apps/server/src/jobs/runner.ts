// The worker pool: claims queued jobs from the database and runs each in its own process, up to `workers` at once.
// Several pools (the server's, `tracemill worker`s) may share one database: claims are atomic and leased, a job whose
// pool died is queued again (a few times at most: lost-runs.ts), and cancels and progress travel through the database.
// On PostgreSQL a pool also listens for the queue's signals (a job queued, a cancel asked) and polls only slowly.
import { type ChildProcess, fork } from "node:child_process";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { type Capability, type InputRole, listRolesByCapability } from "@tracemill/contracts";
import { PASS_PROCESS_FLAGS, SuricataDaemons } from "@tracemill/engine";
import type { Db } from "../db/connect.js";
import { listenToQueue, type QueueSignals } from "../db/queue-signals.js";
import { libraryInput } from "../libraries/library-input.js";
import { jobsRepository } from "../repositories/jobs.js";
import type { Storage } from "../storage/storage.js";
import { isDaemonRequest, lendDaemons } from "./daemon-lending.js";
import { jobParts } from "./job-parts.js";
import { afterLostRun, handedBack } from "./lost-runs.js";
import type { ProgressHub } from "./progress-hub.js";
import { runOutcomes } from "./run-outcome.js";
import { newWorkerId, workerIsGone } from "./worker-identity.js";
import type { CombinedPart, FromWorker, RunMessage } from "./worker-messages.js";

const workerEntry = fileURLToPath(new URL("./worker-process.js", import.meta.url));
const POLL_MS = 1000;
/**
 * The poll of a pool that hears the queue's signals: it still renews leases and finds jobs whose worker is gone, which
 * send no signal. A sixth of the lease keeps renewals (every third of it) well inside it.
 */
const SIGNALLED_POLL_MS = 5000;
const CANCEL_GRACE_MS = 5000;
/**
 * How much nicer than the server its job processes run: a lab server answers its users before it crunches. Ten steps
 * give a job about a tenth of the CPU the server asks for while both want it, and all of it when the server is idle.
 */
export const WORKER_NICENESS_STEP = 10;
/** A claim not renewed for this long is taken to be dead; pools renew theirs every third of it. */
export const LEASE_MS = 30_000;
/** How often event streams of jobs run by other processes look for changes in the database. */
const WATCH_MS = 500;

interface Running {
  child: ChildProcess;
  cancelled: boolean;
  /** The claim went to another process (our lease expired): stop without writing anything. */
  lost: boolean;
  finished: Promise<void>;
}

/** Raising niceness needs no privilege; a platform that refuses it still runs the job, only at normal priority. */
function lowerPriority(child: ChildProcess): void {
  if (child.pid === undefined) return;
  try {
    os.setPriority(child.pid, Math.min(19, os.getPriority() + WORKER_NICENESS_STEP));
  } catch {}
}

export interface RunnerOptions {
  workers: number;
  testEngineModule: string | null;
  rulesetsDir: string;
}

export function jobRunner(db: Db, store: Storage, hub: ProgressHub, options: RunnerOptions) {
  const jobs = jobsRepository(db);
  const workerId = newWorkerId();
  const running = new Map<string, Running>();
  const seen = new Map<string, string>();
  let timers: NodeJS.Timeout[] = [];
  let polling = false;
  /** A wake-up came while a poll ran: the poll goes round once more, so the signal is not lost. */
  let pollAgain = false;
  let signals: QueueSignals | null = null;
  let stopped = false;
  let renewedAt = 0;

  const now = () => new Date().toISOString();
  const leaseUntil = () => new Date(Date.now() + LEASE_MS).toISOString();

  const outcomes = runOutcomes(jobs, store, hub, workerId);
  const parts = jobParts(db, hub);
  /** Suricata kept loaded per ruleset for this pool's sanitize jobs (stopped when idle and with the pool). */
  const daemons = new SuricataDaemons();

  /** The outputs of a job's parts, for its own run to combine (their parts all succeeded). */
  async function partOutputs(jobId: string): Promise<CombinedPart[]> {
    const rows = await parts.list(jobId);
    const outputs = await jobs.outputsOf(rows.map((row) => row.id));
    return rows.map((row) => ({
      capture: row.capture,
      summary: JSON.parse(row.summary ?? "{}") as Record<string, unknown>,
      outputs: outputs
        .filter((o) => o.job_id === row.id)
        .map((o) => ({
          name: o.name,
          kind: o.kind as CombinedPart["outputs"][number]["kind"],
          path: store.outputPath(row.id, o.name),
          sha256: o.sha256,
        })),
    }));
  }

  async function launch(jobId: string): Promise<void> {
    const job = await jobs.byId(jobId);
    if (!job) return;
    const inputs: RunMessage["inputs"] = {};
    const lists: NonNullable<RunMessage["lists"]> = {};
    const listRoles = listRolesByCapability[job.capability as Capability] ?? {};
    // A job over several captures reads its parts' outputs, not its inputs.
    for (const input of job.part_count > 0 ? [] : await jobs.inputsOf([jobId])) {
      // A capture library's file is read where it is, confined to its library again now.
      const inLibrary = input.library === null ? null : await libraryInput(db, input);
      const role = input.role as InputRole;
      const given = {
        path: inLibrary?.path ?? store.filePath(input.id),
        name: input.name,
        compression: input.compression,
        sha256: inLibrary ? inLibrary.sha256 : input.sha256,
      };
      if (role in listRoles) lists[role] = [...(lists[role] ?? []), { ...given, position: Number(input.position) }];
      else inputs[role] = given;
    }
    const run = store.startRun(jobId);
    const child = fork(workerEntry, [], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      execArgv: [...PASS_PROCESS_FLAGS],
    });
    lowerPriority(child);
    let outcome: FromWorker | null = null;
    let lastWrite = Promise.resolve();
    const entry: Running = { child, cancelled: false, lost: false, finished: Promise.resolve() };
    const lend = lendDaemons(child, daemons);
    entry.finished = new Promise<void>((resolve) => {
      child.on("message", (message: FromWorker) => {
        if (isDaemonRequest(message)) {
          lend(message);
        } else if (message.type === "progress") {
          const percent = Math.max(0, Math.min(100, message.percent));
          lastWrite = lastWrite
            .then(() => jobs.updateClaimed(jobId, workerId, { percent, stage: message.stage }))
            .then(() => hub.changed(jobId))
            .then(() => (job.parent_id === null ? undefined : parts.progressed(job.parent_id)))
            // Progress is advisory: a write that fails (a full disk, a locked database) is skipped, the run goes on
            // and its end is recorded as usual.
            .catch(() => {});
        } else {
          outcome = message;
        }
      });
      let settled = false;
      const onEnd = (code: number | null, signal: NodeJS.Signals | null) => {
        if (settled) return;
        settled = true;
        lastWrite
          .then(async () => {
            // Stopping pools hand their runs back; a lost claim is another pool's, which may be writing the same files.
            if (stopped || entry.lost) return;
            await outcomes.record(jobId, { cancelled: entry.cancelled, outcome, code, signal, run });
            await parts.ended(job);
          })
          // The end could not be written (the database is unusable): the job stays claimed by this pool without a
          // run, and the next poll puts it back in the queue (reclaimStale), counted as a run.
          .catch(() => {})
          .finally(() => {
            // Only now: until its end is recorded, the job is this pool's, never taken for one whose worker is gone.
            running.delete(jobId);
            resolve();
            wake();
          });
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
      ...(Object.keys(lists).length > 0 && { lists }),
      outDir: run.outDir,
      workDir: run.workDir,
      testEngineModule: options.testEngineModule,
      rulesetsDir: options.rulesetsDir,
      suricataDaemons: true,
      ...(job.part_count > 0 && { parts: await partOutputs(jobId) }),
    };
    child.send(message);
    // A cancel that came between claiming the job and starting its worker found nothing to stop: honour it now (a
    // failed read leaves it to the next poll's checkRunning).
    if ((await jobs.byId(jobId).catch(() => undefined))?.cancel_requested === 1) void cancel(jobId);
  }

  /** Asks a running job's worker to stop; it is killed if it does not within a few seconds. */
  async function cancel(jobId: string): Promise<void> {
    const entry = running.get(jobId);
    if (!entry) return;
    entry.cancelled = true;
    // A send that fails (the channel closed just now: the process is ending anyway) needs nothing more.
    if (entry.child.connected) entry.child.send({ type: "cancel" }, () => {});
    const kill = setTimeout(() => entry.child.kill("SIGKILL"), CANCEL_GRACE_MS);
    await entry.finished;
    clearTimeout(kill);
  }

  /** Our running jobs: a cancel asked in another process reaches them here; a lost claim stops them. */
  async function checkRunning(): Promise<void> {
    const ids = [...running.keys()];
    if (ids.length === 0) return;
    const states = new Map((await jobs.stateOf(ids)).map((row) => [row.id, row]));
    for (const id of ids) {
      const entry = running.get(id);
      const state = states.get(id);
      if (!entry) continue;
      if (state?.status !== "running" || state.worker_id !== workerId) {
        entry.lost = true;
        entry.child.kill("SIGKILL");
      } else if (state.cancel_requested === 1 && !entry.cancelled) {
        void cancel(id);
      }
    }
    if (Date.now() - renewedAt >= LEASE_MS / 3) {
      renewedAt = Date.now();
      await jobs.renewLeases(workerId, [...running.keys()], leaseUntil());
    }
  }

  /**
   * Jobs of pools that are gone (process ended on this host, or lease expired) go back to the queue, and so do this
   * pool's claims without a run (a run whose end could not be recorded).
   */
  async function reclaimStale(): Promise<void> {
    const at = now();
    for (const claim of await jobs.runningClaims()) {
      if (claim.worker_id === workerId) {
        if (running.has(claim.id)) continue;
      } else {
        const expired = claim.lease_expires_at === null || claim.lease_expires_at < at;
        if (!expired && !(claim.worker_id !== null && workerIsGone(claim.worker_id))) continue;
      }
      const next = afterLostRun(claim, at);
      if (!(await jobs.release(claim, at, next))) continue;
      // Its last run may have left partial outputs; a run started again clears them itself.
      if (next.status === "failed") {
        outcomes.discardFiles(claim.id);
        await parts.ended(claim);
      }
      hub.changed(claim.id);
    }
  }

  async function poll(): Promise<void> {
    if (stopped) return;
    if (polling) {
      pollAgain = true;
      return;
    }
    polling = true;
    try {
      do {
        pollAgain = false;
        await pollOnce();
      } while (pollAgain && !stopped);
    } finally {
      polling = false;
    }
  }

  /** Claims come first: a job just queued waits for no housekeeping (the claim latency a woken pool adds). */
  async function pollOnce(): Promise<void> {
    await claimWhatFits();
    await checkRunning();
    await reclaimStale();
  }

  async function claimWhatFits(): Promise<void> {
    while (!stopped && running.size < options.workers) {
      const id = await jobs.claimNext(workerId, now(), leaseUntil());
      if (!id) break;
      hub.changed(id);
      await launch(id).catch(async (error: unknown) => {
        running.delete(id);
        outcomes.discardFiles(id);
        const failure = outcomes.failure(error, "The job could not start");
        await outcomes.finish(id, { status: "failed", stage: "failed", error: failure });
        const job = await jobs.byId(id);
        if (job) await parts.ended(job);
      });
    }
  }

  /** Event streams in this process follow jobs that other processes run: their changes arrive through the database. */
  async function watch(): Promise<void> {
    if (stopped) return;
    const ids = hub.watched().filter((id) => !running.has(id));
    for (const id of seen.keys()) if (!ids.includes(id)) seen.delete(id);
    if (ids.length === 0) return;
    const rows = new Map((await jobs.progressOf(ids)).map((row) => [row.id, row]));
    for (const id of ids) {
      const row = rows.get(id);
      const state = row ? `${row.status} ${row.percent} ${row.stage}` : "deleted";
      // The first sight counts as a change too: the job may have moved on since the stream sent its state.
      if (seen.get(id) !== state) hub.changed(id);
      seen.set(id, state);
    }
  }

  function wake(): void {
    setImmediate(() => {
      poll().catch(() => {});
    });
  }

  return {
    workerId,
    async start(): Promise<void> {
      const watchTimer = setInterval(() => void watch().catch(() => {}), WATCH_MS);
      signals = listenToQueue(db, wake);
      timers = [setInterval(wake, signals ? SIGNALLED_POLL_MS : POLL_MS), watchTimer];
      wake();
    },
    wake,
    cancel,
    /** Stops the pool: workers are killed and their jobs queued again (run from the start by whichever pool is next). */
    async stop(): Promise<void> {
      stopped = true;
      for (const timer of timers) clearInterval(timer);
      await signals?.close();
      const all = [...running.entries()];
      for (const [, entry] of all) entry.child.kill("SIGKILL");
      await Promise.all(all.map(([, entry]) => entry.finished));
      await daemons.stop();
      // Handed back uncounted: a restart in good order is not the job's fault. A write that fails here leaves the
      // jobs to the next pool, which finds this process gone.
      try {
        for (const claim of await jobs.runningClaims()) {
          if (claim.worker_id !== workerId) continue;
          await jobs.release(claim, now(), handedBack(claim));
        }
      } catch {}
    },
  };
}

export type JobRunner = ReturnType<typeof jobRunner>;

// The background reader of library captures: takes each capture's info (and SHA-256 when not yet known) for the
// listings' cache, one file at a time per process, in a child process (scan-process.ts) at a job's lower priority.
// Listings never wait for it: they answer at once and say which entries are pending.
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import { fileURLToPath } from "node:url";
import { PASS_PROCESS_FLAGS } from "@tracemill/engine";
import { WORKER_NICENESS_STEP } from "../jobs/runner.js";
import type { FileVersion, LibrariesRepository } from "../repositories/libraries.js";
import { type LibraryRef, locateLibraryFile } from "./library-path.js";
import type { FromScan, ToScan } from "./scan-messages.js";

const scanEntry = fileURLToPath(new URL("./scan-process.js", import.meta.url));

/** A version of a library's file whose info is not known yet. */
export interface ScanItem extends FileVersion {
  library: LibraryRef;
  path: string;
}

const sameVersion = (a: FileVersion, b: FileVersion) => a.size === b.size && a.mtimeMs === b.mtimeMs;

export function libraryScanner(repo: LibrariesRepository) {
  /** Taken from the end: the folder listed last is read first, since someone is looking at it. */
  const stack: ScanItem[] = [];
  const queued = new Set<string>();
  let child: ChildProcess | null = null;
  let draining = false;
  let closed = false;

  function startChild(): ChildProcess {
    const started = fork(scanEntry, [], {
      stdio: ["ignore", "inherit", "inherit", "ipc"],
      execArgv: [...PASS_PROCESS_FLAGS],
    });
    // As for jobs (runner.ts): the server answers its users first. A platform that refuses it reads at normal priority.
    try {
      if (started.pid !== undefined) {
        os.setPriority(started.pid, Math.min(19, os.getPriority() + WORKER_NICENESS_STEP));
      }
    } catch {}
    started.once("exit", () => {
      if (child === started) child = null;
    });
    return started;
  }

  /** The scan process's answer, or null when the scanner was closed meanwhile. */
  function scanInChild(message: ToScan): Promise<FromScan | null> {
    child ??= startChild();
    const worker = child;
    return new Promise((resolve) => {
      const settle = (outcome: FromScan) => {
        worker.off("message", settle);
        worker.off("exit", onExit);
        worker.off("error", onError);
        resolve(closed ? null : outcome);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
        settle({ type: "failed", message: `the info pass ended unexpectedly (${signal ?? `exit code ${code}`})` });
      const onError = (error: Error) =>
        settle({ type: "failed", message: `the info pass could not run: ${error.message}` });
      worker.on("message", settle);
      worker.once("exit", onExit);
      worker.once("error", onError);
      worker.send(message, (error) => {
        if (error) onError(error);
      });
    });
  }

  async function scan(item: ScanItem): Promise<void> {
    const row = await repo.entry(item.library.name, item.path);
    // Read meanwhile, or a newer version listed since: that one has its own request.
    if (!row || row.info !== null || !sameVersion({ size: row.size, mtimeMs: row.mtime_ms }, item)) return;
    const location = await locateLibraryFile(item.library, item.path).catch(() => null);
    if (!location || !sameVersion(location.stats, item)) return;
    const outcome = await scanInChild({ file: location.real, hash: row.sha256 === null });
    if (!outcome) return;
    // A file written while it was read: its result is of no version; the next listing sniffs the new one.
    const after = await fs.promises.stat(location.real).catch(() => null);
    if (!after || !sameVersion(after, item)) return;
    const named = `${item.library.name}/${location.relative}`;
    const info =
      outcome.type === "done"
        ? JSON.stringify(outcome.info)
        : JSON.stringify({ problem: outcome.message.replaceAll(location.real, named) });
    const sha256 = outcome.type === "done" ? outcome.sha256 : null;
    await repo.putInfo(item.library.name, item.path, item, info, sha256, new Date().toISOString());
  }

  async function drain(): Promise<void> {
    if (draining) return;
    draining = true;
    try {
      for (let item = stack.pop(); item && !closed; item = stack.pop()) {
        queued.delete(`${item.library.name}\0${item.path}`);
        // A failed read of the cache or write to it leaves the entry pending: the next listing asks again.
        await scan(item).catch(() => {});
      }
    } finally {
      draining = false;
      // Idle: its process goes (it exits when the channel closes) and a new one comes with the next request.
      const idle = child;
      child = null;
      if (idle?.connected) idle.disconnect();
    }
  }

  return {
    /** Asks for these files' info; those already waiting keep their place. */
    request(items: ScanItem[]): void {
      if (closed) return;
      for (const item of [...items].reverse()) {
        const key = `${item.library.name}\0${item.path}`;
        if (queued.has(key)) continue;
        queued.add(key);
        stack.push(item);
      }
      void drain();
    },
    async close(): Promise<void> {
      closed = true;
      const running = child;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => running.once("exit", () => resolve()));
      running.kill("SIGKILL");
      await exited;
    },
  };
}

export type LibraryScanner = ReturnType<typeof libraryScanner>;

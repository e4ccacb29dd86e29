// Test harness for `tracemill worker`: starts one on a data directory and reads the run log of worker-engine.mjs.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { cliPath, repoRoot } from "../../cli/test/run-cli.js";

export const workerEngine = path.join(path.dirname(fileURLToPath(import.meta.url)), "worker-engine.mjs");

export interface WorkerProcess {
  id: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Starts `tracemill worker` and waits for the line naming its worker id. */
export async function startWorkerProcess(
  dataDir: string,
  concurrency: number,
  env: NodeJS.ProcessEnv = {},
  /** Its own process group, so that a test can stop or kill it with its job processes, as a host going down. */
  options: { cwd?: string; group?: boolean } = {},
): Promise<WorkerProcess> {
  const child = spawn(process.execPath, [cliPath, "worker", "--data", dataDir, "--concurrency", String(concurrency)], {
    cwd: options.cwd ?? repoRoot,
    env: { ...process.env, ...env },
    stdio: ["ignore", "pipe", "pipe"],
    detached: options.group === true,
  });
  child.stderr.on("data", (chunk: Buffer) => process.stderr.write(chunk));
  let output = "";
  const id = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`worker did not start:\n${output}`)), 30_000);
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const match = /^Tracemill worker (\S+) is running jobs/.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    });
    child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`worker exited with ${code}:\n${output}`));
    });
  });
  return {
    id,
    process: child,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
      }),
  };
}

/** The runs worker-engine.mjs logged: job id and pid of the runner process, in order. */
export function runsOf(logFile: string): { jobId: string; runner: number }[] {
  if (!fs.existsSync(logFile)) return [];
  return fs
    .readFileSync(logFile, "utf8")
    .trim()
    .split("\n")
    .filter(Boolean)
    .map((line) => {
      const [jobId, runner] = line.split(" ");
      return { jobId, runner: Number(runner) };
    });
}

/** Waits until the condition holds (or fails the test after a timeout). */
export async function until(what: string, condition: () => boolean | Promise<boolean>, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// Runs the suricata program (argument array, never a shell) with a time limit and cancellation, as typed errors.
import { spawn } from "node:child_process";
import { TracemillError } from "@tracemill/core";

export interface SuricataProcessOptions {
  /** The suricata program; default: env TRACEMILL_SURICATA, else "suricata" on the PATH. */
  suricataPath?: string;
  /** Stop the run after this long (default 2 hours). */
  timeoutMs?: number;
  signal?: AbortSignal;
  /** Told Suricata's process id once it runs (its reading progress is followed through /proc). */
  onSpawn?: (pid: number) => void;
}

export interface SuricataOutput {
  stdout: string;
  stderr: string;
}

export const installHint = "install it with `apt-get install -t bookworm-backports suricata` (Debian 12)";
const defaultTimeoutMs = 2 * 60 * 60 * 1000;
/** Keep only the end of Suricata's output: errors come last, and a long run must not fill memory. */
const keptOutput = 64 * 1024;

/**
 * What Suricata says when its capture reader cannot start. With `--runmode single` it then waits a minute (spinning
 * a core) before it exits 1; with `autofp` it skips the file and exits 0 as if the capture had no packets. Either
 * way the run is stopped at this line and fails.
 */
const UNREAD_CAPTURE = /Failed to init pcap file|reader thread failed to initialize/;

export function suricataProgram(path?: string): string {
  return path ?? process.env.TRACEMILL_SURICATA ?? "suricata";
}

/** Runs suricata with `args`; resolves on exit status 0, rejects with TOOL_FAILED / CANCELLED otherwise. */
export function runSuricataProcess(args: string[], options: SuricataProcessOptions = {}): Promise<SuricataOutput> {
  const program = suricataProgram(options.suricataPath);
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  return new Promise((resolve, reject) => {
    if (options.signal?.aborted) {
      reject(cancelled());
      return;
    }
    const child = spawn(program, args, {
      stdio: ["ignore", "pipe", "pipe"],
      // UTC timestamps in EVE, whatever the machine's zone (the parser reads any offset anyway).
      env: { ...process.env, TZ: "UTC" },
      // Its own process group, so stopping it also stops anything it started.
      detached: true,
    });
    if (child.pid !== undefined) options.onSpawn?.(child.pid);
    let stdout = "";
    let stderr = "";
    let stopped: "timeout" | "abort" | "unread" | undefined;
    child.stdout.on("data", (chunk: Buffer) => {
      stdout = (stdout + chunk.toString()).slice(-keptOutput);
    });
    child.stderr.on("data", (chunk: Buffer) => {
      stderr = (stderr + chunk.toString()).slice(-keptOutput);
      if (stopped === undefined && UNREAD_CAPTURE.test(stderr)) stop("unread");
    });
    const stop = (why: "timeout" | "abort" | "unread") => {
      stopped = why;
      try {
        if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
      } catch {
        child.kill("SIGKILL");
      }
      child.stdout.destroy();
      child.stderr.destroy();
    };
    const timer = setTimeout(() => stop("timeout"), timeoutMs);
    const onAbort = () => stop("abort");
    options.signal?.addEventListener("abort", onAbort, { once: true });
    const cleanup = () => {
      clearTimeout(timer);
      options.signal?.removeEventListener("abort", onAbort);
    };
    child.once("error", (error: NodeJS.ErrnoException) => {
      cleanup();
      if (error.code === "ENOENT") {
        reject(
          new TracemillError(
            "TOOL_FAILED",
            `Suricata is not installed (no program "${program}"): ${installHint}, or give its path with --suricata / TRACEMILL_SURICATA`,
            { program },
          ),
        );
      } else {
        reject(
          new TracemillError("TOOL_FAILED", `could not start Suricata (${program}): ${error.message}`, { program }),
        );
      }
    });
    child.once("close", (code, signalName) => {
      cleanup();
      if (stopped === "abort") return reject(cancelled());
      if (stopped === "timeout") {
        return reject(
          new TracemillError(
            "TOOL_FAILED",
            `Suricata did not finish within ${Math.round(timeoutMs / 1000)} s and was stopped`,
            {
              program,
              timeoutMs,
            },
          ),
        );
      }
      const tail = lastLines(stderr.trim() ? stderr : stdout, 15);
      if (stopped === "unread" || UNREAD_CAPTURE.test(stderr)) {
        return reject(
          new TracemillError("TOOL_FAILED", `Suricata could not read the capture: ${tail}`, { program, stderr: tail }),
        );
      }
      if (code === 0) return resolve({ stdout, stderr });
      reject(
        new TracemillError(
          "TOOL_FAILED",
          `Suricata failed (${code === null ? `signal ${signalName}` : `exit status ${code}`}): ${tail}`,
          { program, exitCode: code, stderr: tail },
        ),
      );
    });
  });
}

function lastLines(text: string, count: number): string {
  return text.trim().split("\n").slice(-count).join("\n");
}

function cancelled(): TracemillError {
  return new TracemillError("CANCELLED", "sanitization was cancelled");
}

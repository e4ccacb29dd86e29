// One Suricata kept loaded in unix-socket mode with Tracemill's configuration (the one-shot run's), fed capture files
// through its command socket: rules are compiled once per daemon, not once per run.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TracemillError } from "@tracemill/core";
import { installHint, suricataProgram } from "./run-suricata.js";
import { SuricataSocket } from "./socket-client.js";
import { suricataConfig } from "./suricata-config.js";
import { ruleErrorLines } from "./suricata-run.js";

/** What a daemon is loaded with; two setups with the same key share one daemon. */
export interface DaemonSetup {
  ruleFiles: string[];
  classificationFile: string;
  homeNet: string;
  externalNet: string;
  runmode: "single" | "autofp";
  suricataPath?: string;
}

/** What a scan needs of a running daemon. */
export interface DaemonLease {
  socketPath: string;
  /** Suricata's standard output and error. */
  logFile: string;
  /** Suricata's process id (its progress is read from /proc). */
  pid: number;
  version: string;
  ruleErrors: string[];
  /** A command it does not answer within this long means it hangs (default 15 s). */
  commandTimeoutMs?: number;
}

export interface DaemonStartOptions {
  /** Time allowed for loading the rules (default 10 minutes). */
  startTimeoutMs?: number;
  /** See DaemonLease.commandTimeoutMs. */
  commandTimeoutMs?: number;
  /** Stops the loading (CANCELLED) and the daemon. */
  signal?: AbortSignal;
}

/** The files of a daemon's directory: its socket, Suricata's output, its process id, and the key it was loaded with. */
export const daemonFiles = {
  socket: "suricata.socket",
  log: "suricata.log",
  pid: "suricata.pid",
  setup: "setup.json",
} as const;

/** The start of a daemon directory's name, in the temporary directory. */
export const daemonDirPrefix = "tracemill-suricata-";

const defaultStartMs = 10 * 60 * 1000;

/**
 * The setup and the size and time of each file it loads: a ruleset edited in place (or a ruleset name pointing to
 * other files) gives another key, so another daemon.
 */
export function daemonKey(setup: DaemonSetup): string {
  const files = [...setup.ruleFiles, setup.classificationFile].map((file) => {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    return [file, stat?.size ?? -1, stat?.mtimeMs ?? -1];
  });
  const { homeNet, externalNet, runmode } = setup;
  return JSON.stringify({ files, homeNet, externalNet, runmode, program: suricataProgram(setup.suricataPath) });
}

/**
 * Suricata runs under a shell that reads its standard input: when the owner ends, even killed, the pipe closes and
 * the shell ends the process group, so no Suricata outlives the process that started it.
 */
const WATCHDOG = `exec 3<&0
"$@" </dev/null 3<&- &
s=$!
echo $s > "$TRACEMILL_DAEMON_DIR/suricata.pid"
( read _ <&3; kill -KILL 0 ) &
wait $s
kill -KILL 0`;

export class SuricataDaemon implements DaemonLease {
  readonly socketPath: string;
  readonly logFile: string;
  pid = 0;
  version = "";
  ruleErrors: string[] = [];
  commandTimeoutMs?: number;
  /** Resolves when the process group has ended. */
  readonly exited: Promise<void>;
  private ended = false;

  private constructor(
    readonly dir: string,
    readonly key: string,
    private readonly child: ChildProcess,
  ) {
    this.socketPath = path.join(dir, daemonFiles.socket);
    this.logFile = path.join(dir, daemonFiles.log);
    this.exited = new Promise((resolve) => {
      child.once("exit", () => {
        this.ended = true;
        resolve();
      });
      child.once("error", () => {
        this.ended = true;
        resolve();
      });
    });
  }

  /** Starts Suricata and resolves once its socket answers (the rules are loaded then). */
  static async start(setup: DaemonSetup, options: DaemonStartOptions = {}): Promise<SuricataDaemon> {
    // A short path in the temporary directory: a unix socket's path is limited to 107 bytes.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), daemonDirPrefix));
    const key = daemonKey(setup);
    const config = path.join(dir, "suricata.yaml");
    fs.writeFileSync(config, suricataConfig({ logDir: dir, ...setup }));
    fs.writeFileSync(path.join(dir, daemonFiles.setup), `${key}\n`);
    const log = fs.openSync(path.join(dir, daemonFiles.log), "a");
    const program = suricataProgram(setup.suricataPath);
    const args = [`--unix-socket=${path.join(dir, daemonFiles.socket)}`, "-c", config, "-l", dir, "-k", "none"];
    const child = spawn("/bin/sh", ["-c", WATCHDOG, "sh", program, ...args, "--runmode", setup.runmode], {
      stdio: ["pipe", log, log],
      env: { ...process.env, TZ: "UTC", TRACEMILL_DAEMON_DIR: dir },
      detached: true,
    });
    fs.closeSync(log);
    const daemon = new SuricataDaemon(dir, key, child);
    daemon.commandTimeoutMs = options.commandTimeoutMs;
    // The owner's event loop is not held by its daemons; its exit closes their pipes.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    try {
      await daemon.waitReady(options.startTimeoutMs ?? defaultStartMs, program, options.signal);
    } catch (error) {
      await daemon.stop();
      throw error;
    }
    return daemon;
  }

  get alive(): boolean {
    return !this.ended;
  }

  /** The last lines Suricata wrote. */
  logTail(count = 15): string {
    try {
      return fs.readFileSync(this.logFile, "utf8").trim().split("\n").slice(-count).join("\n");
    } catch {
      return "";
    }
  }

  /** Ends the process group (nothing of a scan is worth a graceful end) and removes the directory. */
  async stop(): Promise<void> {
    if (!this.ended && this.child.pid !== undefined) {
      try {
        process.kill(-this.child.pid, "SIGKILL");
      } catch {}
      await this.exited;
    }
    // The shell is gone; Suricata was in its group, but wait until it is really gone before removing its files.
    for (let i = 0; i < 100 && this.pid > 0 && processExists(this.pid); i++) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    fs.rmSync(this.dir, { recursive: true, force: true });
  }

  private async waitReady(timeoutMs: number, program: string, signal?: AbortSignal): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (signal?.aborted) throw new TracemillError("CANCELLED", "loading the rules was cancelled");
      if (this.ended) {
        const tail = this.logTail();
        if (/not found|No such file/.test(tail) && !fs.existsSync(program) && !program.includes("/")) {
          throw new TracemillError(
            "TOOL_FAILED",
            `Suricata is not installed (no program "${program}"): ${installHint}`,
            {
              program,
            },
          );
        }
        throw new TracemillError("TOOL_FAILED", `Suricata failed while loading its rules: ${tail}`, {
          program,
          stderr: tail,
        });
      }
      if (Date.now() > deadline) {
        throw new TracemillError("TOOL_FAILED", `Suricata did not load its rules within ${timeoutMs / 1000} s`, {
          program,
        });
      }
      if (fs.existsSync(this.socketPath)) {
        const ready = await describeDaemon(this.dir, this.commandTimeoutMs).catch(() => undefined);
        if (ready) {
          this.version = ready.version;
          this.pid = ready.pid;
          this.ruleErrors = ready.ruleErrors;
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

/**
 * The lease of the loaded daemon whose directory is `dir` (this process's or another's): its version asked through
 * the socket, its process id and rule errors from its files. Rejects with SocketLost when its socket does not answer.
 */
export async function describeDaemon(dir: string, commandTimeoutMs?: number): Promise<DaemonLease> {
  const socketPath = path.join(dir, daemonFiles.socket);
  const logFile = path.join(dir, daemonFiles.log);
  const socket = await SuricataSocket.connect(socketPath, commandTimeoutMs);
  let version: string;
  try {
    const answer = await socket.command("version");
    version = /^(\S+)/.exec(String(answer.message ?? ""))?.[1] ?? "";
  } finally {
    socket.close();
  }
  const pid = Number(fs.readFileSync(path.join(dir, daemonFiles.pid), "utf8").trim());
  const ruleErrors = ruleErrorLines(fs.readFileSync(logFile, "utf8"));
  return { socketPath, logFile, pid, version, ruleErrors, ...(commandTimeoutMs !== undefined && { commandTimeoutMs }) };
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

// One Suricata kept loaded in unix-socket mode with Tracemill's configuration (the one-shot run's), fed capture files
// through its command socket: rules are compiled once per daemon, not once per run.
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TracemillError } from "@tracemill/core";
import { installHint, suricataProgram } from "./run-suricata.js";
import { ruleErrorLines } from "./suricata-run.js";
import { SuricataSocket } from "./socket-client.js";
import { suricataConfig } from "./suricata-config.js";

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
}

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
  /** Resolves when the process group has ended. */
  readonly exited: Promise<void>;
  private ended = false;

  private constructor(
    readonly dir: string,
    readonly key: string,
    private readonly child: ChildProcess,
  ) {
    this.socketPath = path.join(dir, "suricata.socket");
    this.logFile = path.join(dir, "suricata.log");
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
  static async start(setup: DaemonSetup, options: { startTimeoutMs?: number } = {}): Promise<SuricataDaemon> {
    // A short path in the temporary directory: a unix socket's path is limited to 107 bytes.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-suricata-"));
    const key = daemonKey(setup);
    const config = path.join(dir, "suricata.yaml");
    fs.writeFileSync(config, suricataConfig({ logDir: dir, ...setup }));
    fs.writeFileSync(path.join(dir, "setup.json"), `${key}\n`);
    const log = fs.openSync(path.join(dir, "suricata.log"), "a");
    const program = suricataProgram(setup.suricataPath);
    const args = [`--unix-socket=${path.join(dir, "suricata.socket")}`, "-c", config, "-l", dir, "-k", "none"];
    const child = spawn("/bin/sh", ["-c", WATCHDOG, "sh", program, ...args, "--runmode", setup.runmode], {
      stdio: ["pipe", log, log],
      env: { ...process.env, TZ: "UTC", TRACEMILL_DAEMON_DIR: dir },
      detached: true,
    });
    fs.closeSync(log);
    const daemon = new SuricataDaemon(dir, key, child);
    // The owner's event loop is not held by its daemons; its exit closes their pipes.
    child.unref();
    (child.stdin as unknown as { unref?: () => void } | null)?.unref?.();
    try {
      await daemon.waitReady(options.startTimeoutMs ?? defaultStartMs, program);
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

  private async waitReady(timeoutMs: number, program: string): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
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
        const socket = await SuricataSocket.connect(this.socketPath).catch(() => undefined);
        if (socket) {
          try {
            const answer = await socket.command("version");
            this.version = /^(\S+)/.exec(String(answer.message ?? ""))?.[1] ?? "";
          } finally {
            socket.close();
          }
          this.pid = Number(fs.readFileSync(path.join(this.dir, "suricata.pid"), "utf8").trim());
          const text = fs.readFileSync(this.logFile, "utf8");
          this.ruleErrors = ruleErrorLines(text);
          return;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
}

function processExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

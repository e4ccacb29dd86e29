// How a sanitization runs Suricata: a process of its own per pass (the one-shot CLI), or passes fed to a loaded daemon
// lent by a DaemonSource (a server's or worker's pool), which pays the rule compilation once per daemon.
import fs from "node:fs";
import type { LineHandler } from "../suricata/line-tail.js";
import { watchReading } from "../suricata/read-progress.js";
import { scanWithDaemon } from "../suricata/socket-scan.js";
import type { DaemonLease } from "../suricata/suricata-daemon.js";
import type { DaemonSource } from "../suricata/suricata-daemons.js";
import { runSuricataOnCapture, type SuricataRun, type SuricataRunSetup } from "../suricata/suricata-run.js";

export interface ScanHandlers {
  onEveLine: LineHandler;
  onFlowLine: LineHandler;
  /** Fraction of the capture read; first called when Suricata starts reading it (its rules are loaded by then). */
  onFraction: (fraction: number) => void;
}

export interface Scanner {
  /** Whether each scan loads the rules first (a process per pass). */
  loadsRules: boolean;
  scan(capture: string, workDir: string, handlers: ScanHandlers): Promise<SuricataRun>;
  /** Suricata's last lines, for the message of a daemon that broke. */
  logTail(): string;
  /** Lets go of the daemon; `broken` has it restarted for the next user. */
  close(broken: boolean): Promise<void>;
}

export function oneShotScanner(setup: SuricataRunSetup): Scanner {
  return {
    loadsRules: true,
    async scan(capture, workDir, handlers) {
      let pid: number | undefined;
      const stop = watchReading(() => pid, capture, handlers.onFraction);
      try {
        return await runSuricataOnCapture(
          capture,
          {
            ...setup,
            onSpawn: (spawned) => {
              pid = spawned;
            },
          },
          workDir,
          handlers.onEveLine,
          handlers.onFlowLine,
        );
      } finally {
        stop();
      }
    },
    logTail: () => "",
    close: async () => {},
  };
}

/** Waits for a daemon of `setup` (loading its rules when none is warm: `onLoading`) and scans with it. */
export async function daemonScanner(
  setup: SuricataRunSetup,
  source: DaemonSource,
  onLoading: () => void,
): Promise<Scanner> {
  const lease: DaemonLease = await source.acquire(setup, { signal: setup.signal, onLoading });
  let closed = false;
  return {
    loadsRules: false,
    scan: (capture, workDir, handlers) =>
      scanWithDaemon(capture, lease, workDir, { ...handlers, signal: setup.signal, timeoutMs: setup.timeoutMs }),
    logTail() {
      try {
        return fs.readFileSync(lease.logFile, "utf8").trim().split("\n").slice(-15).join("\n");
      } catch {
        return "";
      }
    },
    async close(broken) {
      if (closed) return;
      closed = true;
      await source.release(lease, broken);
    },
  };
}

// One capture scanned by a loaded Suricata: a `pcap-file` command naming the capture and an output directory of the
// caller's, the EVE files read as they grow, the end seen when the file is neither current nor queued.
import fs from "node:fs";
import path from "node:path";
import { TracemillError } from "@tracemill/core";
import { type LineHandler, LineTail } from "./line-tail.js";
import { watchReading } from "./read-progress.js";
import { SocketLost, SuricataSocket } from "./socket-client.js";
import { eveAlertsFile, eveFlowsFile } from "./suricata-config.js";
import type { DaemonLease } from "./suricata-daemon.js";
import type { SuricataRun } from "./suricata-run.js";

const POLL_MS = 100;
const defaultTimeoutMs = 2 * 60 * 60 * 1000;
/** What Suricata logs when its reader cannot open the capture (see run-suricata.ts). */
const UNREAD_CAPTURE =
  /Failed to init pcap file|reader thread failed to initialize|Does not exist, or name is an empty/;

export interface SocketScanOptions {
  onEveLine?: LineHandler;
  onFlowLine?: LineHandler;
  /** Fraction of the capture's bytes Suricata has read. */
  onFraction?: (fraction: number) => void;
  signal?: AbortSignal;
  timeoutMs?: number;
}

/**
 * Scans `capture` with the daemon of `lease`, writing into `workDir` (created; the caller removes it). Rejects with
 * SocketLost when the daemon dies or stops answering (the caller restarts it), CANCELLED, or TOOL_FAILED.
 */
export async function scanWithDaemon(
  capture: string,
  lease: DaemonLease,
  workDir: string,
  options: SocketScanOptions = {},
): Promise<SuricataRun> {
  fs.mkdirSync(workDir, { recursive: true });
  // A name of this scan's own: the daemon says which file it reads by name, and two jobs may read one stored file.
  const input = path.join(workDir, `input${path.extname(capture) || ".pcap"}`);
  fs.symlinkSync(path.resolve(capture), input);
  const logStart = fs.statSync(lease.logFile, { throwIfNoEntry: false })?.size ?? 0;
  const tails: LineTail[] = [];
  if (options.onEveLine) tails.push(new LineTail(path.join(workDir, eveAlertsFile), options.onEveLine));
  if (options.onFlowLine) tails.push(new LineTail(path.join(workDir, eveFlowsFile), options.onFlowLine));
  const stopWatching = options.onFraction ? watchReading(() => lease.pid, input, options.onFraction) : () => {};
  const started = performance.now();
  const socket = await SuricataSocket.connect(lease.socketPath, lease.commandTimeoutMs);
  try {
    const added = await socket.command("pcap-file", { filename: input, "output-dir": workDir });
    if (added.return !== "OK") {
      throw new TracemillError("TOOL_FAILED", `Suricata refused the capture: ${String(added.message)}`, {
        file: capture,
      });
    }
    const deadline = Date.now() + (options.timeoutMs ?? defaultTimeoutMs);
    for (;;) {
      for (const tail of tails) await tail.poll();
      // The queue first, then the reader: a file only moves from queued to current to done, and Suricata may move it
      // between two questions. Asked the other way round, a file taken from the queue just after "not current" was
      // answered would be seen nowhere, and the scan would end before it began.
      const queued = await socket.command("pcap-file-list");
      const current = await socket.command("pcap-current");
      const files = (queued.message as { files?: string[] } | undefined)?.files ?? [];
      if (current.message !== input && !files.includes(input)) break;
      const unread = newLogLines(lease.logFile, logStart).find((line) => UNREAD_CAPTURE.test(line));
      const stop = unread
        ? new TracemillError("TOOL_FAILED", `Suricata could not read the capture: ${unread}`, { file: capture })
        : options.signal?.aborted
          ? new TracemillError("CANCELLED", "sanitization was cancelled")
          : Date.now() > deadline
            ? new TracemillError(
                "TOOL_FAILED",
                `Suricata did not finish within ${Math.round((options.timeoutMs ?? defaultTimeoutMs) / 1000)} s and was stopped`,
              )
            : undefined;
      if (stop) {
        await interrupt(socket, input);
        throw stop;
      }
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
    const seconds = (performance.now() - started) / 1000;
    for (const tail of tails) await tail.finish();
    return {
      eveFile: path.join(workDir, eveAlertsFile),
      flowsFile: path.join(workDir, eveFlowsFile),
      seconds,
      version: lease.version,
      ruleErrors: lease.ruleErrors,
    };
  } finally {
    stopWatching();
    socket.close();
    for (const tail of tails) await tail.close();
  }
}

/** Stops the daemon reading `input` and waits until it has let it go (it goes on serving other scans). */
async function interrupt(socket: SuricataSocket, input: string): Promise<void> {
  for (let i = 0; i < 100; i++) {
    const current = await socket.command("pcap-current");
    if (current.message !== input) return;
    await socket.command("pcap-interrupt");
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new SocketLost("Suricata did not stop reading a cancelled capture");
}

function newLogLines(file: string, from: number): string[] {
  try {
    const size = fs.statSync(file).size;
    if (size <= from) return [];
    const fd = fs.openSync(file, "r");
    try {
      const buffer = Buffer.alloc(Math.min(size - from, 64 * 1024));
      const read = fs.readSync(fd, buffer, 0, buffer.length, from);
      return buffer.toString("utf8", 0, read).split("\n");
    } finally {
      fs.closeSync(fd);
    }
  } catch {
    return [];
  }
}

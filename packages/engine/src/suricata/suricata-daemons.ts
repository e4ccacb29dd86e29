// The loaded Suricatas of one process (a server's or a worker's pool): one daemon per setup, started on first use,
// lent to one scan at a time (Suricata reads its queued files one after the other anyway, and a scan alone in the
// daemon can be interrupted without touching another's), restarted when a scan finds it broken, stopped when idle.
import { TracemillError } from "@tracemill/core";
import { SuricataSocket } from "./socket-client.js";
import { type DaemonLease, type DaemonSetup, daemonKey, SuricataDaemon } from "./suricata-daemon.js";

/** Where a scan gets a loaded Suricata; implemented in-process here and over IPC by a job's process. */
export interface DaemonSource {
  /** A loaded daemon for `setup`, this caller's alone until released; `onLoading` is called when rules must load. */
  acquire(setup: DaemonSetup, options?: { signal?: AbortSignal; onLoading?: () => void }): Promise<DaemonLease>;
  /** Gives the daemon back; `broken` (it stopped answering) has it stopped, the next acquire starts a new one. */
  release(lease: DaemonLease, broken: boolean): Promise<void>;
}

export interface DaemonsOptions {
  /** A daemon unused this long is stopped (default 10 minutes; env TRACEMILL_SURICATA_IDLE_SECONDS). */
  idleMs?: number;
  /** Time allowed for loading the rules (default 10 minutes). */
  startTimeoutMs?: number;
  /** A daemon that does not answer a command within this long is taken for hung and replaced (default 15 s). */
  commandTimeoutMs?: number;
}

interface Entry {
  key: string;
  ruleFiles: string;
  daemon: Promise<SuricataDaemon> | undefined;
  /** Resolves when the current holder releases it. */
  free: Promise<void>;
  holders: number;
  idle: NodeJS.Timeout | undefined;
}

export function defaultIdleMs(): number {
  const seconds = Number(process.env.TRACEMILL_SURICATA_IDLE_SECONDS);
  return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 10 * 60 * 1000;
}

export class SuricataDaemons implements DaemonSource {
  private readonly entries = new Map<string, Entry>();
  private readonly byLease = new Map<DaemonLease, { entry: Entry; unlock: () => void }>();
  private readonly idleMs: number;
  private stopped = false;

  constructor(private readonly options: DaemonsOptions = {}) {
    this.idleMs = options.idleMs ?? defaultIdleMs();
  }

  async acquire(
    setup: DaemonSetup,
    options: { signal?: AbortSignal; onLoading?: () => void } = {},
  ): Promise<DaemonLease> {
    if (this.stopped) throw new TracemillError("CANCELLED", "the worker is stopping");
    const key = daemonKey(setup);
    let entry = this.entries.get(key);
    if (!entry) {
      entry = {
        key,
        ruleFiles: JSON.stringify(setup.ruleFiles),
        daemon: undefined,
        free: Promise.resolve(),
        holders: 0,
        idle: undefined,
      };
      this.entries.set(key, entry);
    }
    // In line behind the holders before us.
    const before = entry.free;
    let unlock = () => {};
    const mine = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    // A caller that gives up while in line must not let the next one past the holder before it.
    entry.free = Promise.all([before, mine]).then(() => {});
    entry.holders++;
    clearTimeout(entry.idle);
    try {
      await abortable(before, options.signal);
      // The same rule files changed since their daemon started: that daemon is stale, stopped once idle.
      for (const other of this.entries.values()) {
        if (other !== entry && other.ruleFiles === entry.ruleFiles && other.holders === 0) void this.retire(other);
      }
      let daemon = entry.daemon && (await entry.daemon.catch(() => undefined));
      if (!daemon?.alive) {
        if (daemon) await daemon.stop();
        options.onLoading?.();
        // A cancelled caller stops waiting, not the loading: the next job finds the rules loaded.
        const { startTimeoutMs, commandTimeoutMs } = this.options;
        const starting = SuricataDaemon.start(setup, { startTimeoutMs, commandTimeoutMs });
        const current = entry;
        current.daemon = starting;
        starting.catch(() => {
          if (current.daemon === starting) current.daemon = undefined;
        });
        daemon = await abortable(starting, options.signal);
      }
      this.byLease.set(daemon, { entry, unlock });
      return daemon;
    } catch (error) {
      this.done(entry, unlock);
      throw error;
    }
  }

  async release(lease: DaemonLease, broken: boolean): Promise<void> {
    const held = this.byLease.get(lease);
    if (!held) return;
    this.byLease.delete(lease);
    const daemon = lease as SuricataDaemon;
    // A holder that went away mid-scan (its process killed) may have left its file in the daemon: stopped first.
    if (!broken && daemon.alive) broken = !(await settle(daemon.socketPath, daemon.commandTimeoutMs));
    if (broken) {
      held.entry.daemon = undefined;
      await daemon.stop();
    }
    this.done(held.entry, held.unlock);
  }

  /** Stops every daemon (the owner is ending). */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all([...this.entries.values()].map((entry) => this.retire(entry)));
  }

  /** Daemons running now (for tests and status lines). */
  async running(): Promise<SuricataDaemon[]> {
    const all = await Promise.all([...this.entries.values()].map((e) => e.daemon?.catch(() => undefined)));
    return all.filter((d): d is SuricataDaemon => d?.alive === true);
  }

  private done(entry: Entry, unlock: () => void): void {
    entry.holders--;
    unlock();
    if (entry.holders === 0 && !this.stopped) {
      entry.idle = setTimeout(() => void this.retire(entry), this.idleMs);
      entry.idle.unref();
    }
  }

  private async retire(entry: Entry): Promise<void> {
    clearTimeout(entry.idle);
    if (this.entries.get(entry.key) === entry && entry.holders === 0) this.entries.delete(entry.key);
    const daemon = await entry.daemon?.catch(() => undefined);
    entry.daemon = undefined;
    await daemon?.stop();
  }
}

/**
 * Waits until the daemon reads no file (interrupting one left behind); false when it does not answer, so it is
 * taken for broken.
 */
async function settle(socketPath: string, commandTimeoutMs?: number): Promise<boolean> {
  let socket: SuricataSocket | undefined;
  try {
    socket = await SuricataSocket.connect(socketPath, commandTimeoutMs);
    for (let i = 0; i < 300; i++) {
      // The queue before the reader, as socket-scan.ts asks: a file taken from the queue in between is then seen.
      const queued = await socket.command("pcap-file-number");
      const current = await socket.command("pcap-current");
      if (current.message === "None" && Number(queued.message) === 0) return true;
      if (i === 0 && current.message !== "None") await socket.command("pcap-interrupt");
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    return false;
  } catch {
    return false;
  } finally {
    socket?.close();
  }
}

function abortable<T>(promise: Promise<T>, signal?: AbortSignal): Promise<T> {
  if (!signal) return promise;
  if (signal.aborted) return Promise.reject(new TracemillError("CANCELLED", "sanitization was cancelled"));
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(new TracemillError("CANCELLED", "sanitization was cancelled"));
    signal.addEventListener("abort", onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(error);
      },
    );
  });
}

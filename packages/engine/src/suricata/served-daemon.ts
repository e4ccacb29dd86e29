// A Suricata kept loaded in the foreground for one-shot commands (`tracemill suricata serve`), and the DaemonSource
// through which a run scans with it: only when the setup.json beside its socket is what the run would load itself.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { TracemillError } from "@tracemill/core";
import { lockServedScan } from "./served-scan-lock.js";
import {
  type DaemonLease,
  type DaemonSetup,
  type DaemonStartOptions,
  daemonDirPrefix,
  daemonFiles,
  daemonKey,
  describeDaemon,
  SuricataDaemon,
} from "./suricata-daemon.js";
import type { DaemonSource } from "./suricata-daemons.js";

/** A DaemonSource cannot serve this run (the message says why): the run starts a Suricata of its own instead. */
export class DaemonDeclined extends Error {
  override name = "DaemonDeclined";
}

export interface ServedDaemon {
  daemon: SuricataDaemon;
  /** The path clients give: `socket` when asked for (a link to the daemon's socket), else the socket itself. */
  socket: string;
  /** Ends Suricata's process group and removes its directory and the link. */
  stop(): Promise<void>;
}

/**
 * Loads `setup` into a daemon; with `socket`, a symbolic link there names its socket (a socket path is limited to
 * 107 bytes, the daemon's own stays short in the temporary directory). A stale link, to a socket gone, is replaced.
 */
export async function serveDaemon(
  setup: DaemonSetup,
  options: DaemonStartOptions & { socket?: string } = {},
): Promise<ServedDaemon> {
  const link = options.socket === undefined ? undefined : path.resolve(options.socket);
  if (link) await claimLink(link);
  const daemon = await SuricataDaemon.start(setup, options);
  if (link) {
    try {
      fs.symlinkSync(daemon.socketPath, link);
    } catch (error) {
      await daemon.stop();
      throw error;
    }
  }
  return {
    daemon,
    socket: link ?? daemon.socketPath,
    async stop() {
      await daemon.stop();
      if (link && readLink(link) === daemon.socketPath) fs.rmSync(link, { force: true });
    },
  };
}

/**
 * The daemon served at `socket` for runs whose setup it was loaded with. Its process is another's: a scan that finds
 * it gone or hung does not restart it, and the run's next acquire declines.
 */
export function servedDaemonSource(socket: string, options: { commandTimeoutMs?: number } = {}): DaemonSource {
  let lost = false;
  const unlocks = new Map<DaemonLease, () => void>();
  return {
    async acquire(setup, acquireOptions) {
      if (lost) throw new DaemonDeclined(`the Suricata served at ${socket} stopped answering during the scan`);
      let dir: string;
      try {
        dir = path.dirname(fs.realpathSync(socket));
      } catch (error) {
        throw new DaemonDeclined(`no Suricata is served at ${socket} (${(error as NodeJS.ErrnoException).code})`);
      }
      let served: string;
      try {
        served = fs.readFileSync(path.join(dir, daemonFiles.setup), "utf8").trim();
      } catch {
        throw new DaemonDeclined(`${socket} is not the socket of a \`tracemill suricata serve\` (no setup.json)`);
      }
      const why = setupDifference(served, daemonKey(setup));
      if (why) throw new DaemonDeclined(`the Suricata served at ${socket} ${why}`);
      // Scans of other processes through this daemon go first: one at a time, as in a pool.
      const unlock = await lockServedScan(dir, acquireOptions?.signal);
      try {
        const lease = await describeDaemon(dir, options.commandTimeoutMs);
        unlocks.set(lease, unlock);
        return lease;
      } catch (error) {
        unlock();
        throw new DaemonDeclined(`no Suricata answers at ${socket} (${(error as Error).message})`);
      }
    },
    async release(lease, broken) {
      unlocks.get(lease)?.();
      unlocks.delete(lease);
      if (broken) lost = true;
    },
  };
}

interface Key {
  files: [string, number, number][];
  homeNet: string;
  externalNet: string;
  runmode: string;
  program: string;
}

/** What differs between the served daemon's key and the one a run asks for, in words; "" when nothing does. */
export function setupDifference(servedKey: string, wantedKey: string): string {
  if (servedKey === wantedKey) return "";
  let served: Key;
  const wanted = JSON.parse(wantedKey) as Key;
  try {
    served = JSON.parse(servedKey) as Key;
    if (!Array.isArray(served.files)) throw new Error("no files");
  } catch {
    return "was started by another version of Tracemill (its setup.json is not one this version writes)";
  }
  const names = (key: Key) => key.files.map(([file]) => file);
  const [servedRules, wantedRules] = [names(served).slice(0, -1), names(wanted).slice(0, -1)];
  if (servedRules.join("\n") !== wantedRules.join("\n")) {
    return `is loaded with other rules files (${servedRules.join(", ")}), not this run's (${wantedRules.join(", ")})`;
  }
  const [servedClass, wantedClass] = [names(served).at(-1), names(wanted).at(-1)];
  if (servedClass !== wantedClass) {
    return `uses the classification file ${servedClass}, not this run's ${wantedClass}`;
  }
  const changed = wanted.files.find(([, size, time], i) => served.files[i][1] !== size || served.files[i][2] !== time);
  if (changed) return `loaded ${changed[0]} before it changed (its size or time differs now)`;
  for (const [name, label] of [
    ["program", "Suricata program"],
    ["runmode", "run mode"],
    ["homeNet", "HOME_NET"],
    ["externalNet", "EXTERNAL_NET"],
  ] as const) {
    if (served[name] !== wanted[name]) return `runs with ${label} ${served[name]}, not this run's ${wanted[name]}`;
  }
  return "was loaded with another setup";
}

/**
 * Refuses a path in use, unless it is a link to a socket nothing answers at (left by a serve that was killed; its
 * Suricata ended with it): that link goes, with the daemon directory it points into.
 */
async function claimLink(link: string): Promise<void> {
  const stat = fs.lstatSync(link, { throwIfNoEntry: false });
  if (!stat) return;
  if (stat.isSymbolicLink() && !(await answers(link))) {
    const target = readLink(link);
    const dir = target && path.dirname(target);
    if (dir && path.basename(dir).startsWith(daemonDirPrefix) && fs.existsSync(path.join(dir, daemonFiles.setup))) {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    fs.rmSync(link, { force: true });
    return;
  }
  throw new TracemillError("BAD_OPTION", `${link} exists already: give --socket a path that is free`, { file: link });
}

/** Whether anything accepts a connection at the socket `file`. */
function answers(file: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.createConnection(file);
    socket.once("connect", () => {
      socket.destroy();
      resolve(true);
    });
    socket.once("error", () => resolve(false));
  });
}

function readLink(link: string): string | undefined {
  try {
    return fs.readlinkSync(link);
  } catch {
    return undefined;
  }
}

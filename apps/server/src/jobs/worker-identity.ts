// Names the process that claims jobs, and tells from such a name whether that process is gone (same host only).
import crypto from "node:crypto";
import os from "node:os";

/** `pid@host/random`: the random part keeps a later process that reuses the pid from passing for this one. */
export function newWorkerId(): string {
  return `${process.pid}@${os.hostname()}/${crypto.randomBytes(4).toString("hex")}`;
}

/**
 * True only when the worker ran on this host and its process no longer exists. Anything else (another host, a name
 * that cannot be read, a live pid even if reused) is left to the lease's expiry, which is always safe.
 */
export function workerIsGone(workerId: string): boolean {
  const match = /^(\d+)@(.+)\/[0-9a-f]+$/.exec(workerId);
  if (!match || match[2] !== os.hostname()) return false;
  try {
    process.kill(Number(match[1]), 0);
    return false;
  } catch (error) {
    // EPERM: the process exists but belongs to another user.
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

// Idle expiry in O(1) per packet: sessions sit in time buckets (a timing wheel), checked when their bucket's time
// is over, so a packet touches only its own session and a session ends at most one bucket width late.
import type { Session } from "./session.js";

/** Buckets per idle timeout: a session's end is noticed at most idleTimeout / 1024 after it is due. */
const BUCKETS_PER_TIMEOUT = 1024;

/**
 * Each live session has one entry, in the bucket of the time it was last checked. When a bucket's time is over,
 * its sessions idle since before the limit end; the others move to the bucket of their last packet. An entry whose
 * session ended otherwise (its generation changed) is skipped.
 */
export class ExpiryWheel<T> {
  private readonly width: number;
  private readonly sessions: Session<T>[][];
  private readonly generations: number[][];
  /** Absolute number of the oldest bucket not yet checked. */
  private cursor = -1;
  private count = 0;

  constructor(idleTimeoutNs: number) {
    this.width = Math.max(1, Math.ceil(idleTimeoutNs / BUCKETS_PER_TIMEOUT));
    const size = BUCKETS_PER_TIMEOUT + 2;
    this.sessions = Array.from({ length: size }, () => []);
    this.generations = Array.from({ length: size }, () => []);
  }

  /** Entries held, stale ones included. */
  get length(): number {
    return this.count;
  }

  /** Files `session` under `time` (ns), which is at most one idle timeout before the latest time seen. */
  push(session: Session<T>, time: number): void {
    const bucket = Math.floor(time / this.width);
    if (this.cursor < 0) this.cursor = bucket;
    const at = bucket % this.sessions.length;
    this.sessions[at].push(session);
    this.generations[at].push(session.generation);
    this.count++;
  }

  /** Calls `end` for every session whose last packet is before `limit`; checks only buckets wholly before it. */
  expire(limit: number, end: (session: Session<T>) => void): void {
    if (this.count === 0) return;
    const width = this.width;
    while ((this.cursor + 1) * width <= limit && this.count > 0) {
      const at = this.cursor % this.sessions.length;
      const sessions = this.sessions[at];
      const generations = this.generations[at];
      const length = sessions.length;
      this.sessions[at] = [];
      this.generations[at] = [];
      this.count -= length;
      for (let i = 0; i < length; i++) {
        const session = sessions[i];
        if (session.generation !== generations[i]) continue;
        if (session.lastTime < limit) end(session);
        else this.push(session, session.lastTime);
      }
      this.cursor++;
    }
    if (this.count === 0) this.cursor = -1;
  }

  /** Calls `end` for every live session, oldest bucket first, and empties the wheel. */
  drain(end: (session: Session<T>) => void): void {
    for (let n = 0; this.count > 0 && n < this.sessions.length; n++) {
      const at = (this.cursor + n) % this.sessions.length;
      const sessions = this.sessions[at];
      const generations = this.generations[at];
      this.sessions[at] = [];
      this.generations[at] = [];
      this.count -= sessions.length;
      for (let i = 0; i < sessions.length; i++) if (sessions[i].generation === generations[i]) end(sessions[i]);
    }
    this.cursor = -1;
  }
}

// A FIFO ring of (session, time) entries for idle expiry: pushing and popping cost O(1) and touch no other session.
import type { Session } from "./session.js";

/**
 * Each live session has one entry, pushed with the time it was last checked. An entry whose session ended since
 * (its generation changed) pops as null. Times are non-decreasing except for re-pushed entries, which carry the
 * session's last packet time; that bounds how late the table notices an idle session (see FlowTable.expire).
 */
export class ExpiryQueue<T> {
  private sessions: (Session<T> | null)[] = new Array(1024).fill(null);
  private generations = new Float64Array(1024);
  private times = new Float64Array(1024);
  private head = 0;
  private count = 0;

  get length(): number {
    return this.count;
  }

  headTime(): number {
    return this.times[this.head];
  }

  push(session: Session<T>, time: number): void {
    if (this.count === this.sessions.length) this.grow();
    const at = (this.head + this.count) & (this.sessions.length - 1);
    this.sessions[at] = session;
    this.generations[at] = session.generation;
    this.times[at] = time;
    this.count++;
  }

  /** The head entry's session, or null when that session has ended since the entry was pushed. */
  pop(): Session<T> | null {
    const at = this.head;
    const session = this.sessions[at]!;
    const current = session.generation === this.generations[at];
    this.sessions[at] = null;
    this.head = (at + 1) & (this.sessions.length - 1);
    this.count--;
    return current ? session : null;
  }

  private grow(): void {
    const size = this.sessions.length * 2;
    const sessions: (Session<T> | null)[] = new Array(size).fill(null);
    const generations = new Float64Array(size);
    const times = new Float64Array(size);
    const mask = this.sessions.length - 1;
    for (let i = 0; i < this.count; i++) {
      const from = (this.head + i) & mask;
      sessions[i] = this.sessions[from];
      generations[i] = this.generations[from];
      times[i] = this.times[from];
    }
    this.sessions = sessions;
    this.generations = generations;
    this.times = times;
    this.head = 0;
  }
}

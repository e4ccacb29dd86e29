// PostgreSQL's LISTEN on the queue's channel: a pool learns at once that a job was queued or a cancel asked
// (migration 0005's triggers send the signal), instead of finding out at its next poll. SQLite has nothing like it.
import pg from "pg";
import { type Db, postgresUrlOf } from "./connect.js";
import { QUEUE_CHANNEL } from "./migrations.js";

/** How long after losing its connection the listener tries again; the pool's own slow poll covers the gap. */
const RECONNECT_MS = 2000;

export interface QueueSignals {
  close(): Promise<void>;
}

/**
 * Calls `onSignal` for every signal on the queue's channel, on a connection of its own (outside the pool, so it never
 * holds one of the pool's). Also once after each (re)connection: signals sent while it was not listening were lost.
 * Null on SQLite.
 */
export function listenToQueue(db: Db, onSignal: () => void): QueueSignals | null {
  const url = postgresUrlOf(db);
  if (url === undefined) return null;
  let client: pg.Client | null = null;
  let closed = false;
  let retry: NodeJS.Timeout | undefined;

  const lost = (which: pg.Client) => {
    if (client !== which) return;
    client = null;
    which.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, RECONNECT_MS);
  };

  function connect(): void {
    const next = new pg.Client({ connectionString: url });
    client = next;
    next.on("notification", () => onSignal());
    next.on("error", () => lost(next));
    next.on("end", () => lost(next));
    next
      .connect()
      .then(() => next.query(`LISTEN ${QUEUE_CHANNEL}`))
      .then(() => {
        if (client === next) onSignal();
      })
      .catch(() => lost(next));
  }

  connect();
  return {
    async close() {
      closed = true;
      clearTimeout(retry);
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}

// Indexes of job outputs (engine/browse) kept in memory for the gallery and the IPT plots: built on a first request,
// one at a time, kept while they fit in a bound of bytes (the least recently used dropped first), and built again when
// the output's file is no longer the one indexed.
import fs from "node:fs";
import { notFound } from "./http-error.js";

interface Held<T> {
  stamp: string;
  value: Promise<T>;
  bytes: number;
}

/** What identifies a file's version: its size and modification time (outputs are written once, renamed whole). */
export async function fileStamp(file: string): Promise<string> {
  try {
    const stat = await fs.promises.stat(file);
    return `${stat.size}:${stat.mtimeMs}`;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw notFound();
    throw error;
  }
}

export function outputIndexes<T extends { bytes: number }>(maxBytes: number) {
  const held = new Map<string, Held<T>>();
  // Building reads a whole output; several at once would share the disk with the server's other requests for no
  // sooner answer.
  let building: Promise<unknown> = Promise.resolve();

  function trim(): void {
    let total = 0;
    for (const entry of held.values()) total += entry.bytes;
    // Map order is the order of use: the first key is the least recently used; the newest is always kept.
    for (const [key, entry] of held) {
      if (total <= maxBytes || held.size === 1) break;
      held.delete(key);
      total -= entry.bytes;
    }
  }

  return {
    /** The index of `key` at version `stamp`, from memory or built by `build`. */
    get(key: string, stamp: string, build: () => Promise<T>): Promise<T> {
      const known = held.get(key);
      if (known) held.delete(key);
      if (known && known.stamp === stamp) {
        held.set(key, known);
        return known.value;
      }
      const value = building.then(build, build);
      building = value.catch(() => undefined);
      const entry: Held<T> = { stamp, value, bytes: 0 };
      held.set(key, entry);
      value.then(
        (index) => {
          entry.bytes = index.bytes;
          trim();
        },
        () => {
          if (held.get(key) === entry) held.delete(key);
        },
      );
      return value;
    },
  };
}

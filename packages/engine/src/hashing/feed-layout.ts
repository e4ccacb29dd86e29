// What the reading thread and the hashing worker share: the control words in shared memory, the ring slots, and the
// worker's data and messages. Declared once here, imported by both sides.

/** Ring slots per input: how many chunks a reader may be ahead of the hashing before it waits or reads on alone. */
export const SLOTS = 4;

/** Control word bumped on every publish, end and stop: the worker sleeps on it. */
export const DOORBELL = 0;
/** Control word set to 1 when no digest is wanted any more: the worker leaves its loop. */
export const STOP = 1;
/** Per input: chunks published into its ring. */
export const PUBLISHED = 0;
/** Per input: chunks hashed (their slots free again). */
export const CONSUMED = 1;
/** Per input: 1 once nothing more is fed; the worker then reads the rest of the file itself. */
export const ENDED = 2;

/** The index of input `input`'s control word `field` (PUBLISHED, CONSUMED, ENDED). */
export function word(input: number, field: number): number {
  return 2 + 3 * input + field;
}

/** Control words for `inputs` inputs. */
export function controlWords(inputs: number): number {
  return 2 + 3 * inputs;
}

export interface HashWorkerData {
  /**
   * Per input: null when this worker does not hash it; else its file, read for the bytes not fed (null for a pipe,
   * whose bytes are all fed).
   */
  inputs: ({ file: string | null } | null)[];
  /** Int32 control words (controlWords). */
  control: SharedArrayBuffer;
  /** Int32 per input and slot: the length of the chunk published there. */
  lengths: SharedArrayBuffer;
  /** Per input: SLOTS slots of `slotBytes`, or null when it is never fed (the worker reads all of it). */
  rings: (SharedArrayBuffer | null)[];
  slotBytes: number;
}

export type HashWorkerMessage = { input: number; digest: string } | { input: number; error: string };

/**
 * How long the worker idles before its thread ends, for a process started with `execArgv`: 50 ms, since a background
 * compile of its code may still be running and Node 20 aborts the process when one outlives its isolate
 * (docs/architecture.md, "Worker threads"); none with `--no-concurrent-recompilation` (the command's, the jobs' and
 * the tests' flag), where V8 compiles nothing in the background and the run would wait for nothing at its end.
 */
export function quietMs(execArgv: readonly string[]): number {
  return execArgv.includes("--no-concurrent-recompilation") ? 0 : 50;
}

// Where the inputs' SHA-256 digests come from: given by the caller, taken by the first pass from the chunks it
// reads anyway, or computed by a worker thread beside both passes (no wall time while a core is free, but the
// worker's start-up and its own read cost about 0.1 s more CPU per 240 MB: see docs/formats.md, "Speed").
import os from "node:os";
import { hashFiles } from "./file-hash.js";

export type HashingPlace = "worker" | "first-pass";

/** The worker when a core is idle (one-minute load average below the cores by at least one), else the first pass. */
export function defaultHashingPlace(): HashingPlace {
  return os.loadavg()[0] + 1 <= os.availableParallelism() ? "worker" : "first-pass";
}

export class InputDigests {
  private readonly stop = new AbortController();
  private readonly signal: AbortSignal;
  private readonly workers: Promise<void>[] = [];
  private readonly digests: (string | undefined)[];

  constructor(
    private readonly files: string[],
    given: (string | undefined)[],
    private readonly place: HashingPlace,
    signal?: AbortSignal,
  ) {
    this.digests = [...given];
    this.signal = signal ? AbortSignal.any([signal, this.stop.signal]) : this.stop.signal;
    if (place === "worker") this.hash(files.map((_, i) => i).filter((i) => given[i] === undefined));
  }

  /** The first pass over input i should hash its chunks. */
  inFirstPass(i: number): boolean {
    return this.place === "first-pass" && this.digests[i] === undefined;
  }

  /** Takes the first pass's digests; inputs it could not hash (not a plain pcap) go to a worker. */
  scanned(fromFirstPass: (string | null)[]): void {
    const missing: number[] = [];
    fromFirstPass.forEach((digest, i) => {
      if (!this.inFirstPass(i)) return;
      if (digest === null) missing.push(i);
      else this.digests[i] = digest;
    });
    this.hash(missing);
  }

  /** Every input's digest, once computed. */
  async all(): Promise<string[]> {
    await Promise.all(this.workers);
    return this.digests as string[];
  }

  /** Stops any worker still hashing (the merge ended, however). */
  close(): void {
    this.stop.abort();
  }

  private hash(indices: number[]): void {
    if (indices.length === 0) return;
    const done = hashFiles(
      indices.map((i) => this.files[i]),
      this.signal,
    ).then((digests) => {
      indices.forEach((input, k) => {
        this.digests[input] = digests[k];
      });
    });
    // Rejections are taken up by all(); a failed merge never asks.
    done.catch(() => {});
    this.workers.push(done);
  }
}

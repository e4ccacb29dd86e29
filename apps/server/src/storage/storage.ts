// Where job files live: uploads, job inputs and outputs, addressed by file id and job id under one root that every
// host running `serve` or `worker` sees at the same place (a shared directory, e.g. an NFS mount). The database names
// files by id and outputs by job id and name only, so a path never depends on the host that wrote it.
import type { Readable } from "node:stream";
import type { Sniffed } from "./sniff-format.js";

export interface StoredUpload extends Sniffed {
  size: number;
  sha256: string;
}

/** One run of a job: the engine writes into `outDir`, a temporary name that becomes the job's outputs once published. */
export interface JobRun {
  outDir: string;
  /** Scratch space (inflated inputs), removed when the run ends. */
  workDir: string;
}

export interface Storage {
  /** The directory every path below is under. */
  readonly root: string;
  /** A stored file's path, for a worker to read (the same on every host). */
  filePath(fileId: string): string;
  /** A job output's path, by its name as the job lists it (never a name from a request): opened for downloads. */
  outputPath(jobId: string, name: string): string;
  /** A job output's size in bytes. */
  outputSize(jobId: string, name: string): number;
  /** Where what the server derives from a job's outputs (the explorer's columns) is kept; removed with the job. */
  cacheDir(jobId: string): string;
  /**
   * Streams an upload in under the file id: written to a temporary name beside it, hashed and sniffed as it goes, and
   * renamed only when complete and recognised.
   */
  save(fileId: string, source: Readable, isTruncated: () => boolean): Promise<StoredUpload>;
  /** A job output's format from its first bytes; UnrecognisedFile when it is no file a capability reads. */
  sniffOutput(jobId: string, name: string): Promise<Sniffed>;
  /** Brings a job's output in as a file of its own and gives its SHA-256 (the one recorded, else computed now). */
  importOutput(jobId: string, name: string, toId: string, sha256: string | null): Promise<string>;
  /** A fresh run of a job: what earlier runs left is removed, the run's directories are made. */
  startRun(jobId: string): JobRun;
  /** Makes a finished run's outputs the job's, all at once (one rename). */
  publishRun(jobId: string, run: JobRun): void;
  removeFiles(ids: string[]): void;
  /** Removes everything of a job: its outputs and what any run left. */
  removeJob(jobId: string): void;
}

// The database's tables as Kysely sees them, the same on SQLite and PostgreSQL (migrations.ts says how the types map).
import type { Generated, Selectable, Updateable } from "kysely";

export interface UsersTable {
  id: string;
  user_name: string;
  email: string;
  /** Lower-cased email: the unique key, so the same address in other case cannot register twice. */
  email_key: string;
  password_hash: string;
  created_at: string;
}

export interface SessionsTable {
  /** SHA-256 of the cookie's token: a stolen database does not yield usable cookies. */
  id: string;
  user_id: string;
  created_at: string;
  expires_at: string;
}

export interface FilesTable {
  id: string;
  owner_id: string;
  /** The name the user gave the file; shown and used for downloads, never for paths on disk. */
  name: string;
  size: number;
  sha256: string;
  format: string;
  /** "gzip" when the upload is compressed; the worker inflates it before the engine reads it. */
  compression: string | null;
  created_at: string;
  /** A capture library's file, read in place (the library's name and the path within it); null for stored files. */
  library: string | null;
  library_path: string | null;
  /**
   * For a file brought in from an earlier job's output: that job and the output's name (its lineage); null for
   * uploads and library files. No foreign key: deleting that job keeps this file and its record of where it came from.
   */
  source_job_id: string | null;
  source_output: string | null;
}

export interface JobsTable {
  id: string;
  owner_id: string;
  title: string;
  description: string;
  public: number;
  capability: string;
  params: string;
  status: string;
  percent: number;
  stage: string;
  error: string | null;
  summary: string | null;
  cancel_requested: number;
  /** The process that claimed the job last (`pid@host/random`); kept after the run as a record of who ran it. */
  worker_id: string | null;
  /** ISO time until which that claim holds while the job runs (the process renews it); null otherwise. */
  lease_expires_at: string | null;
  /**
   * How many runs were started, counting only those that ended with their worker gone or finished (a run handed back
   * by a pool stopping in good order is not counted): it bounds the re-queues of a job that keeps ending its worker.
   */
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  /** The job this one is a part of (one capture of a job over several); null for the jobs users see. */
  parent_id: Generated<string | null>;
  /** A part's place among its parent's parts, from 0. */
  part_index: Generated<number | null>;
  /**
   * How many parts a job over several captures has (0 for any other job). While its parts run, such a job is
   * "running" with no worker; once they all succeed it is queued again, and its own run combines their outputs.
   */
  part_count: Generated<number>;
  /** A succeeded run's sessions (null for a merge, and until a job succeeds): db/list-columns.ts. */
  sessions: Generated<number | null>;
  /** A succeeded run's outputs together, in bytes; null until the job succeeds. */
  output_bytes: Generated<number | null>;
  /** How many result warnings a succeeded run's summary calls for (engine's resultWarnings); 0 otherwise. */
  warning_count: Generated<number>;
}

export interface JobInputsTable {
  job_id: string;
  role: string;
  file_id: string;
  /** The input's place among the job's inputs of the same role (the order of a job's captures). */
  position: Generated<number>;
}

export interface JobOutputsTable {
  job_id: string;
  name: string;
  kind: string;
  size: number;
  sha256: string | null;
  position: Generated<number>;
}

export interface LibrariesTable {
  name: string;
  /** The directory's absolute real path, the same on every host that runs jobs; never shown to users. */
  dir: string;
  created_at: string;
}

/** What a library's file is, valid while its size and modification time are the ones recorded. */
export interface LibraryEntriesTable {
  library: string;
  /** Relative to the library, "/"-separated. */
  path: string;
  size: number;
  mtime_ms: number;
  /** Taken once per version of the file: by the background info pass, or by the first job that uses it. */
  sha256: string | null;
  /** The sniffed kind (a capture format, another kind of file, or "unrecognised"). */
  format: string;
  compression: string | null;
  /** The info pass's result as JSON (LibraryCaptureInfo, or {"problem": …}); null until it has run. */
  info: string | null;
  /** When this version of the file was last sniffed, hashed or read. */
  checked_at: string;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  files: FilesTable;
  jobs: JobsTable;
  job_inputs: JobInputsTable;
  job_outputs: JobOutputsTable;
  libraries: LibrariesTable;
  library_entries: LibraryEntriesTable;
}

/** A job as read, and the changes a write may make (generated columns unwrapped). */
export type JobRecord = Selectable<JobsTable>;
export type JobChanges = Updateable<JobsTable>;

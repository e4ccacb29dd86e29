// The database's tables as Kysely sees them, the same on SQLite and PostgreSQL (migrations.ts says how the types map).
import type { Generated } from "kysely";

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
}

export interface JobInputsTable {
  job_id: string;
  role: string;
  file_id: string;
}

export interface JobOutputsTable {
  job_id: string;
  name: string;
  kind: string;
  size: number;
  sha256: string | null;
  position: Generated<number>;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  files: FilesTable;
  jobs: JobsTable;
  job_inputs: JobInputsTable;
  job_outputs: JobOutputsTable;
}

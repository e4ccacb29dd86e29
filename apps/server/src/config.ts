// Server configuration: every setting with its default, read once from options and the environment.
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { isPostgresUrl } from "./db/dialect.js";

export interface ServerConfig {
  port: number;
  host: string;
  /** Data directory: what is this host's alone (the SQLite file unless `database` says otherwise, caches). */
  dataDir: string;
  /**
   * Storage directory: uploads, job inputs and outputs, and the server's rulesets (default: the data directory).
   * Every `serve` and `worker` of one database must see the same files here (a shared mount when on several hosts).
   */
  storageDir: string;
  /** Directory holding the built web app (index.html and assets). */
  webDir: string | null;
  /** A `postgres://` URL, or the SQLite database file (default `<dataDir>/tracemill.sqlite`). */
  database: string;
  /** Largest accepted upload in bytes (default 50 GB). */
  maxUploadBytes: number;
  /** Jobs run at once, each in its own worker process (default: one per core less one, at least 1; 0: none). */
  workers: number;
  /** How long a sign-in lasts, in hours (default 7 days). */
  sessionHours: number;
  /** Directory whose captures/ are served, with datasets generated from them, by /sampledatasets. */
  samplesDir: string;
  /** The server's own rulesets (one sub-directory each, added with `tracemill rulesets add`); default `<storageDir>/rulesets`. */
  rulesetsDir: string;
  /** Registration attempts accepted per client address and hour (default 20). */
  registrationsPerHour: number;
  /** Behind a reverse proxy: take the client's address from X-Forwarded-For (for sign-in slow-down per client). */
  trustProxy: boolean;
  /** Test hook: a module whose exports replace the engine's capability functions in workers. Never set in production. */
  testEngineModule: string | null;
}

/** The sample captures shipped with the server (apps/server/samples, from src/ or dist/ alike). */
const shippedSamples = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../samples");

export interface ConfigInput {
  port?: number | string;
  host?: string;
  dataDir?: string;
  webDir?: string | null;
  workers?: number | string;
  /** `--database`: a `postgres://` URL or a SQLite file. */
  database?: string;
  /** `--storage`: the directory of job files, shared by every host (default: the data directory). */
  storageDir?: string;
}

function positiveNumber(name: string, raw: string | number | undefined, fallback: number): number {
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`invalid ${name}: ${String(raw)}`);
  return value;
}

/**
 * `--database` or TRACEMILL_DATABASE_URL: a `postgres://` URL, or else a SQLite file; without either, the SQLite file
 * TRACEMILL_DATABASE_FILE names, or the data directory's.
 */
function databaseOf(chosen: string | undefined, file: string | undefined, dataDir: string): string {
  if (chosen && isPostgresUrl(chosen)) return chosen;
  return path.resolve(chosen || file || path.join(dataDir, "tracemill.sqlite"));
}

export function loadConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(input.port ?? env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port: ${String(input.port ?? env.PORT)}`);
  }
  const dataDir = path.resolve(input.dataDir ?? env.TRACEMILL_DATA_DIR ?? "data");
  // Workers read job files where `serve` wrote them: with no shared directory named, that is the data directory.
  const storageDir = path.resolve(input.storageDir || env.TRACEMILL_STORAGE_DIR || dataDir);
  const defaultWorkers = Math.max(1, os.availableParallelism() - 1);
  const rawWorkers = input.workers ?? env.TRACEMILL_WORKERS;
  // 0: this process runs no jobs (`serve` only answers HTTP; `tracemill worker` processes run them).
  const workers =
    Number(rawWorkers) === 0 && rawWorkers !== ""
      ? 0
      : Math.floor(positiveNumber("worker count", rawWorkers, defaultWorkers));
  return {
    port,
    host: input.host ?? env.TRACEMILL_HOST ?? "0.0.0.0",
    dataDir,
    storageDir,
    webDir: input.webDir === undefined ? (env.TRACEMILL_WEB_DIR ?? null) : input.webDir,
    database: databaseOf(input.database ?? env.TRACEMILL_DATABASE_URL, env.TRACEMILL_DATABASE_FILE, dataDir),
    maxUploadBytes: Math.floor(positiveNumber("upload limit", env.TRACEMILL_MAX_UPLOAD_BYTES, 50 * 1024 ** 3)),
    workers,
    sessionHours: positiveNumber("session length", env.TRACEMILL_SESSION_HOURS, 24 * 7),
    samplesDir: path.resolve(env.TRACEMILL_SAMPLES_DIR ?? shippedSamples),
    rulesetsDir: path.resolve(env.TRACEMILL_RULESETS_DIR ?? path.join(storageDir, "rulesets")),
    registrationsPerHour: Math.floor(
      positiveNumber("registrations per hour", env.TRACEMILL_REGISTRATIONS_PER_HOUR, 20),
    ),
    trustProxy: env.TRACEMILL_TRUST_PROXY === "1" || env.TRACEMILL_TRUST_PROXY === "true",
    testEngineModule: env.TRACEMILL_TEST_ENGINE_MODULE ?? null,
  };
}

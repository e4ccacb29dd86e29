// A throw-away PostgreSQL cluster for tests: initdb in a temporary directory, a server listening only on a Unix socket
// there, a fresh database per call of createDatabase(), and stop() removing it all. Never a mock.
import { execFileSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll } from "vitest";

export interface PostgresCluster {
  /** A new empty database on the cluster, as a `postgres://` URL. */
  createDatabase(): Promise<string>;
  stop(): Promise<void>;
}

const USER = "tracemill";

/** The newest installed PostgreSQL's programs (Debian keeps them under /usr/lib/postgresql/<major>/bin). */
function binDir(): string {
  const root = "/usr/lib/postgresql";
  const majors = fs.existsSync(root)
    ? fs
        .readdirSync(root)
        .map(Number)
        .filter((major) => major >= 15 && fs.existsSync(path.join(root, String(major), "bin", "initdb")))
        .sort((a, b) => b - a)
    : [];
  if (majors.length === 0) {
    throw new Error(
      "PostgreSQL 15 or newer is not installed (no /usr/lib/postgresql/<version>/bin/initdb): run scripts/setup.sh --for test, or apt-get install postgresql",
    );
  }
  return path.join(root, String(majors[0]), "bin");
}

/** PostgreSQL refuses to run as root: as root, its programs run as the `postgres` user, who owns the directory. */
function runner(dir: string): (program: string, args: string[]) => void {
  const asRoot = process.getuid?.() === 0;
  if (asRoot) execFileSync("chown", ["-R", "postgres:postgres", dir]);
  return (program, args) => {
    const [command, argv] = asRoot ? ["runuser", ["-u", "postgres", "--", program, ...args]] : [program, args];
    try {
      execFileSync(command, argv, { cwd: dir, stdio: ["ignore", "pipe", "pipe"] });
    } catch (error) {
      const output = (error as { stderr?: Buffer }).stderr?.toString().trim() ?? "";
      throw new Error(`${path.basename(program)} failed: ${output || (error as Error).message}`);
    }
  };
}

export async function startPostgresCluster(): Promise<PostgresCluster> {
  const bin = binDir();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-pg-"));
  const data = path.join(dir, "data");
  const run = runner(dir);
  // Only the socket in our directory is listened on, so any port number is free; a random one keeps clients honest.
  const port = 20_000 + crypto.randomInt(40_000);
  run(path.join(bin, "initdb"), ["-D", data, "-U", USER, "--auth=trust", "-E", "UTF8", "--no-sync", "--no-locale"]);
  const options = `-k ${dir} -p ${port} -c listen_addresses= -c fsync=off -c full_page_writes=off`;
  try {
    run(path.join(bin, "pg_ctl"), ["-D", data, "-o", options, "-l", path.join(dir, "server.log"), "-w", "start"]);
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped = false;
  const stop = () => {
    if (stopped) return;
    stopped = true;
    process.removeListener("exit", stop);
    try {
      run(path.join(bin, "pg_ctl"), ["-D", data, "-m", "immediate", "-w", "stop"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  };
  // A test process that ends without its afterAll (a crash, a timeout) leaves no server running behind it.
  process.once("exit", stop);
  const url = (database: string) =>
    `postgres://${USER}@localhost/${database}?host=${encodeURIComponent(dir)}&port=${port}`;
  let count = 0;
  return {
    async createDatabase() {
      const name = `test_${++count}`;
      const admin = new pg.Client({ connectionString: url("postgres") });
      await admin.connect();
      try {
        await admin.query(`CREATE DATABASE ${name}`);
      } finally {
        await admin.end();
      }
      return url(name);
    },
    async stop() {
      stop();
    },
  };
}

/**
 * Starts a cluster before the file's tests and stops it after them; the returned function gives it (to the tests and
 * to hooks that run after this one's).
 */
export function usePostgresCluster(): () => PostgresCluster {
  let cluster: PostgresCluster | undefined;
  beforeAll(async () => {
    cluster = await startPostgresCluster();
  }, 60_000);
  afterAll(async () => {
    await cluster?.stop();
  });
  return () => {
    if (cluster === undefined) throw new Error("the PostgreSQL cluster is used before it started");
    return cluster;
  };
}

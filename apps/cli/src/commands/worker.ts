// tracemill worker: runs queued jobs of a database and storage directory shared with `tracemill serve`, without HTTP.
import { TracemillError } from "@tracemill/core/errors";
import { Command, InvalidArgumentError } from "commander";

function concurrency(raw: string): string {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 1) throw new InvalidArgumentError("must be a whole number of at least 1");
  return raw;
}

export function workerCommand(): Command {
  return new Command("worker")
    .description("run queued jobs of the database and storage directory of a `tracemill serve` (no HTTP)")
    .option("--data <dir>", "data directory, this host's own (env TRACEMILL_DATA_DIR; default ./data)")
    .option(
      "--storage <dir>",
      "directory of uploads and job files, shared with `serve` (env TRACEMILL_STORAGE_DIR; default: the data directory)",
    )
    .option(
      "--database <url>",
      "postgres:// URL, or SQLite file (env TRACEMILL_DATABASE_URL; default: in the data directory)",
    )
    .option(
      "--concurrency <n>",
      "jobs run at once (env TRACEMILL_WORKERS; default: cores - 1, at least 1)",
      concurrency,
    )
    .action(async (options: { data?: string; storage?: string; database?: string; concurrency?: string }) => {
      // Loaded here, not at the top: the server's dependencies would add to every other command's start-up.
      const { DatabaseError, loadConfig, startWorker } = await import("@tracemill/server");
      const config = loadConfig({
        dataDir: options.data,
        storageDir: options.storage,
        database: options.database,
        workers: options.concurrency,
      });
      if (config.workers < 1) throw new TracemillError("BAD_OPTION", "a worker needs TRACEMILL_WORKERS of at least 1");
      const worker = await startWorker(config).catch((error: unknown) => {
        throw error instanceof DatabaseError ? new TracemillError("BAD_OPTION", error.message) : error;
      });
      process.stdout.write(
        `Tracemill worker ${worker.workerId} is running jobs from ${config.storageDir} (${config.workers} at once)\n`,
      );
      const stop = () => {
        worker.close().then(
          () => process.exit(0),
          (error: unknown) => {
            process.stderr.write(`tracemill: the worker did not stop cleanly: ${String(error)}\n`);
            process.exit(1);
          },
        );
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      await new Promise(() => {});
    });
}

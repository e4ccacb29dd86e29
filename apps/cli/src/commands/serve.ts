// tracemill serve: starts the web application and API.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TracemillError } from "@tracemill/core/errors";
import { Command } from "commander";

/** The built web app, shipped beside the CLI in the repository. */
const defaultWebDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../web/dist");

interface ServeOptions {
  port?: string;
  host?: string;
  data?: string;
  storage?: string;
  database?: string;
  workers?: string;
}

export function serveCommand(): Command {
  return new Command("serve")
    .description("serve the web application and API (default http://localhost:8080)")
    .option("-p, --port <n>", "port to listen on (env PORT)")
    .option("--host <addr>", "address to listen on (env TRACEMILL_HOST)")
    .option("--data <dir>", "data directory, this host's own (env TRACEMILL_DATA_DIR; default ./data)")
    .option(
      "--storage <dir>",
      "directory of uploads and job files, shared with every worker (env TRACEMILL_STORAGE_DIR; default: the data directory)",
    )
    .option(
      "--database <url>",
      "postgres:// URL, or SQLite file (env TRACEMILL_DATABASE_URL; default: in the data directory)",
    )
    .option(
      "--workers <n>",
      "jobs run at once (env TRACEMILL_WORKERS; default: cores - 1, at least 1; 0: none, `tracemill worker` runs them)",
    )
    .action(async (options: ServeOptions) => {
      // Loaded here, not at the top: the server's dependencies would add to every other command's start-up.
      const { DatabaseError, ListenError, loadConfig, startServer } = await import("@tracemill/server");
      const config = loadConfig({
        port: options.port,
        host: options.host,
        dataDir: options.data,
        storageDir: options.storage,
        database: options.database,
        workers: options.workers,
        webDir: process.env.TRACEMILL_WEB_DIR ?? defaultWebDir,
      });
      // A port or a database that cannot be had ends the command (exit status 1, one line); no job has started by then.
      const server = await startServer(config).catch((error: unknown) => {
        const edge = error instanceof ListenError || error instanceof DatabaseError;
        throw edge ? new TracemillError("BAD_OPTION", error.message) : error;
      });
      const files = config.storageDir === config.dataDir ? "" : `, files in ${config.storageDir}`;
      process.stdout.write(`Tracemill is running at ${server.url}/ (data in ${config.dataDir}${files})\n`);
      const stop = () => {
        server.close().then(
          () => process.exit(0),
          (error: unknown) => {
            process.stderr.write(`tracemill: the server did not stop cleanly: ${String(error)}\n`);
            process.exit(1);
          },
        );
      };
      process.once("SIGINT", stop);
      process.once("SIGTERM", stop);
      await new Promise(() => {});
    });
}

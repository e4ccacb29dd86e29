// Server configuration: every setting with its default, read once from options and the environment.
import path from "node:path";

export interface ServerConfig {
  port: number;
  host: string;
  /** Data directory: the SQLite file (unless databaseUrl says otherwise) and every job's files. */
  dataDir: string;
  /** Directory holding the built web app (index.html and assets). */
  webDir: string | null;
}

export interface ConfigInput {
  port?: number | string;
  host?: string;
  dataDir?: string;
  webDir?: string | null;
}

export function loadConfig(input: ConfigInput = {}, env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const port = Number(input.port ?? env.PORT ?? 8080);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`invalid port: ${String(input.port ?? env.PORT)}`);
  }
  return {
    port,
    host: input.host ?? env.TRACEMILL_HOST ?? "0.0.0.0",
    dataDir: path.resolve(input.dataDir ?? env.TRACEMILL_DATA_DIR ?? "data"),
    webDir: input.webDir === undefined ? (env.TRACEMILL_WEB_DIR ?? null) : input.webDir,
  };
}

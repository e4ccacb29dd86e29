// Starts the server on its configured port and returns a handle to stop it.
import { buildApp } from "./app.js";
import type { ServerConfig } from "./config.js";
import { logUnhandledRejections } from "./last-resort.js";

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** The server could not take its address: the message names it and says why, in one line. */
export class ListenError extends Error {}

const LISTEN_FAILURES: Record<string, string> = {
  EADDRINUSE: "the port is already in use",
  EACCES: "permission denied (ports below 1024 need privileges)",
  EADDRNOTAVAIL: "the address is not one of this machine's",
};

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const app = await buildApp(config);
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    // Jobs start only once the server listens (app.ts), so closing leaves nothing running: the process can end.
    await app.close();
    const code = (error as NodeJS.ErrnoException).code ?? "";
    const reason = LISTEN_FAILURES[code] ?? (error instanceof Error ? error.message : String(error));
    const host = config.host.includes(":") ? `[${config.host}]` : config.host;
    throw new ListenError(`cannot listen on ${host}:${config.port}: ${reason}`);
  }
  logUnhandledRejections();
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return { url: `http://localhost:${port}`, close: () => app.close() };
}

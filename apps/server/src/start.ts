// Starts the server on its configured port and returns a handle to stop it.
import { buildApp } from "./app.js";
import type { ServerConfig } from "./config.js";

export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

export async function startServer(config: ServerConfig): Promise<RunningServer> {
  const app = await buildApp(config);
  await app.listen({ port: config.port, host: config.host });
  const address = app.server.address();
  const port = typeof address === "object" && address ? address.port : config.port;
  return { url: `http://localhost:${port}`, close: () => app.close() };
}

// `tracemill worker`: a worker pool without HTTP, claiming jobs from the same database as `tracemill serve`.
import fs from "node:fs";
import type { ServerConfig } from "../config.js";
import { openDatabase } from "../db/connect.js";
import { logUnhandledRejections } from "../last-resort.js";
import { fileStore } from "../storage/file-store.js";
import { progressHub } from "./progress-hub.js";
import { jobRunner } from "./runner.js";

export interface RunningWorker {
  workerId: string;
  /** Stops the pool; the jobs it was running go back to the queue. */
  close(): Promise<void>;
}

export async function startWorker(config: ServerConfig): Promise<RunningWorker> {
  fs.mkdirSync(config.dataDir, { recursive: true });
  const db = await openDatabase(config.database);
  const runner = jobRunner(db, fileStore(config.storageDir), progressHub(), {
    workers: config.workers,
    testEngineModule: config.testEngineModule,
    rulesetsDir: config.rulesetsDir,
  });
  await runner.start();
  logUnhandledRejections();
  return {
    workerId: runner.workerId,
    async close() {
      await runner.stop();
      await db.destroy();
    },
  };
}

// Opens everything the routes need — database, file store, worker pool, services — and closes it again.
import type { ServerConfig } from "./config.js";
import { openDatabase } from "./db/connect.js";
import { builtSourceArchive, installRoot } from "./install-root.js";
import { progressHub } from "./jobs/progress-hub.js";
import { jobRunner } from "./jobs/runner.js";
import { serverDirs } from "./jobs/user-paths.js";
import { accountsService } from "./services/accounts.js";
import { explorerService } from "./services/explorer.js";
import { jobsService } from "./services/jobs.js";
import { librariesService } from "./services/libraries.js";
import { scryptPasswords } from "./services/passwords.js";
import { picturesService } from "./services/pictures.js";
import { samplesService } from "./services/samples.js";
import { findSourceArchive } from "./services/source-archive.js";
import { uploadsService } from "./services/uploads.js";
import { fileStore } from "./storage/file-store.js";

export async function openContext(config: ServerConfig) {
  const db = await openDatabase(config.database);
  const store = fileStore(config.storageDir);
  const hub = progressHub();
  const runner = jobRunner(db, store, hub, {
    workers: config.workers,
    testEngineModule: config.testEngineModule,
    rulesetsDir: config.rulesetsDir,
  });
  const libraries = librariesService(db);
  const jobs = jobsService(db, store, runner, hub, { rulesetsDir: config.rulesetsDir, serverDirs: serverDirs(config) });
  return {
    config,
    hub,
    runner,
    accounts: accountsService(db, { sessionHours: config.sessionHours, passwords: scryptPasswords }),
    jobs,
    explorer: explorerService(jobs, store),
    pictures: picturesService(jobs),
    uploads: uploadsService(db, store, { maxUploadBytes: config.maxUploadBytes }),
    libraries,
    samples: samplesService(config),
    sourceArchive: await findSourceArchive(installRoot, builtSourceArchive),
    async close(): Promise<void> {
      await runner.stop();
      await libraries.close();
      await db.destroy();
    },
  };
}

export type AppContext = Awaited<ReturnType<typeof openContext>>;

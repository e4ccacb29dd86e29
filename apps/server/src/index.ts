// Public surface of the server: build the app or start it, or start a worker pool without HTTP.
export { buildApp } from "./app.js";
export { type ConfigInput, loadConfig, type ServerConfig } from "./config.js";
export { DatabaseError } from "./db/connect.js";
export { type RunningWorker, startWorker } from "./jobs/standalone-worker.js";
export { LibraryAdminError, openLibraryAdmin } from "./services/library-admin.js";
export { ListenError, startServer } from "./start.js";

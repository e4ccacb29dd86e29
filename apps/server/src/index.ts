// Public surface of the server: build the app or start it.
export { buildApp } from "./app.js";
export { type ConfigInput, loadConfig, type ServerConfig } from "./config.js";
export { startServer } from "./start.js";

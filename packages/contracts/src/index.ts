// Request and response schemas shared by web, server and CLI.
export * from "./auth.js";
export * from "./jobs.js";
export * from "./legacy.js";

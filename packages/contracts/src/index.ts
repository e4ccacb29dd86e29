// Request and response schemas shared by web, server and CLI.
import "./zod-config.js";

export * from "./auth.js";
export * from "./dataset-params.js";
export * from "./explorer.js";
export * from "./files.js";
export * from "./job-list.js";
export * from "./jobs.js";
export * from "./legacy.js";
export * from "./libraries.js";
export * from "./lineage.js";
export * from "./names.js";
export * from "./pictures.js";

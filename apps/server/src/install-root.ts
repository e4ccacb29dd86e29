// Where the server is installed: the repository root (this file sits at apps/server/{src,dist}/).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

// From this module's real path: the URL it was loaded by may go through node_modules/@tracemill/server (a link).
export const installRoot = path.resolve(path.dirname(fs.realpathSync(fileURLToPath(import.meta.url))), "../../..");

/** The source archive the build makes for a copy of the installation without its .git (scripts/source-archive.mjs). */
export const builtSourceArchive = path.join(installRoot, "apps/server/dist/source.tar.gz");

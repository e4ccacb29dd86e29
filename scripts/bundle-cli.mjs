#!/usr/bin/env node
// Bundles the tracemill command with the engine and the core into apps/cli/dist/bundle/ (part of `npm run build`):
// Node 20 resolves, reads and links each ES module one by one, and the hundred-odd modules an `extract` needs cost it
// more than the extraction of a small capture. Each command's engine area stays a chunk of its own, loaded when the
// command runs, and `--version` reads version.js alone (bin/tracemill.js). The server (which `serve` loads) and npm
// packages other than commander stay outside, imported from node_modules as before.
// The bundle's folder sits as deep as dist/commands/ and the engine's dist/ folders, so the paths the code finds
// from its own location (the web app's dist/, the repository's rules/) stay right; the hashing and Parquet workers are
// entries of their own beside the chunks that start them.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { rolldown } from "rolldown";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bundleDir = path.join(root, "apps/cli/dist/bundle");

/**
 * The project's own packages are bundled, except the server, and commander (every run loads it: bundled, Node's
 * CommonJS loader is spared its files); other npm packages and Node's modules are imported.
 */
function external(id) {
  if (id.startsWith(".") || path.isAbsolute(id) || id === "commander") return false;
  return !id.startsWith("@tracemill/") || id === "@tracemill/server" || id.startsWith("@tracemill/server/");
}

const bundle = await rolldown({
  cwd: root,
  input: {
    main: path.join(root, "apps/cli/src/main.ts"),
    "hash-worker": path.join(root, "packages/engine/src/hashing/hash-worker.ts"),
    "parquet-worker": path.join(root, "packages/engine/src/output/parquet-worker.ts"),
    version: path.join(root, "packages/engine/src/version.ts"),
  },
  platform: "node",
  // The sources, as Vitest reads them: the bundle does not depend on the packages' dist/ being current.
  resolve: { conditionNames: ["source", "import", "node", "default"] },
  external,
  logLevel: "warn",
});
await bundle.write({
  dir: bundleDir,
  format: "esm",
  entryFileNames: "[name].js",
  chunkFileNames: "[name]-[hash].js",
  cleanDir: true,
});
await bundle.close();

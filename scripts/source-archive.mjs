#!/usr/bin/env node
// Build step: writes apps/server/dist/source.tar.gz, the files git tracks at HEAD (`git archive`), which /code serves
// when the server runs from a copy without its .git. Never the working tree: data, uploads and untracked files stay out.
// Usage: node scripts/source-archive.mjs [checkout] [archive]   (defaults: this repository, its server's dist/)
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const root = path.resolve(process.argv[2] ?? repoRoot);
const target = path.resolve(process.argv[3] ?? path.join(repoRoot, "apps/server/dist/source.tar.gz"));

if (!fs.existsSync(path.join(root, ".git"))) {
  // A copy without history (built from a tarball): keep an archive that came with its dist, never make one from files.
  if (!fs.existsSync(target)) {
    process.stderr.write(`source-archive: ${root} is not a git checkout; /code will answer 404 on this installation\n`);
  }
  process.exit(0);
}
fs.mkdirSync(path.dirname(target), { recursive: true });
const partial = `${target}.part`;
const out = fs.openSync(partial, "w");
const result = spawnSync(
  "git",
  ["--git-dir", path.join(root, ".git"), "archive", "--format=tar.gz", "--prefix=tracemill/", "HEAD"],
  { stdio: ["ignore", out, "inherit"] },
);
fs.closeSync(out);
if (result.status === 0) {
  fs.renameSync(partial, target);
} else {
  // No archive rather than one of another version.
  fs.rmSync(partial, { force: true });
  fs.rmSync(target, { force: true });
  process.stderr.write(`source-archive: git archive failed (${result.error?.message ?? `exit ${result.status}`})\n`);
}

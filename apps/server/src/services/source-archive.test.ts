// /code's archive: exactly the tracked files, from git in a checkout and from the build's archive in a copy without
// .git; never the working tree's data directory, untracked files, node_modules or dist.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { installRoot } from "../install-root.js";
import { findSourceArchive } from "./source-archive.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-source-"));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function git(cwd: string, ...args: string[]): string {
  const result = spawnSync("git", ["-c", "user.name=T", "-c", "user.email=t@example.org", ...args], {
    cwd,
    encoding: "utf8",
  });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
  return result.stdout;
}

function write(root: string, file: string, content: string): void {
  fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  fs.writeFileSync(path.join(root, file), content);
}

/** The files of a .tar.gz (directories left out), without the archive's top folder. */
function filesOf(archive: Buffer): string[] {
  const file = path.join(tmp, `listing-${Math.random().toString(36).slice(2)}.tar.gz`);
  fs.writeFileSync(file, archive);
  const listing = spawnSync("tar", ["-tzf", file], { encoding: "utf8" });
  expect(listing.status).toBe(0);
  return listing.stdout
    .split("\n")
    .filter((name) => name !== "" && !name.endsWith("/"))
    .map((name) => name.replace(/^tracemill\//, ""))
    .sort();
}

async function read(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

describe("findSourceArchive", () => {
  // A checkout whose working tree holds what must never be served: a data directory with users and uploads, an
  // untracked secret, node_modules and dist (both ignored, as in the repository).
  const root = path.join(tmp, "checkout");
  write(root, "package.json", "{}\n");
  write(root, "apps/server/src/app.ts", "export {};\n");
  write(root, "docs/name with space.md", "# doc\n");
  write(root, ".gitignore", "node_modules/\ndist/\n");
  git(root, "init", "-q");
  git(root, "add", ".");
  git(root, "commit", "-q", "-m", "first");
  write(root, "var/db/tracemill.sqlite", "users: ada@example.org scrypt$…");
  write(root, "var/db/files/0b7e", "someone's upload");
  write(root, "secret.env", "TOKEN=1");
  write(root, "node_modules/x/index.js", "");
  write(root, "apps/server/dist/app.js", "");
  const tracked = git(root, "ls-files").split("\n").filter(Boolean).sort();
  const built = path.join(tmp, "built/source.tar.gz");

  it("in a checkout, archives the commit checked out: exactly `git ls-files`", async () => {
    const source = await findSourceArchive(root, built);
    expect(source.kind).toBe("git");
    if (source.kind !== "git") return;
    expect(source.commit).toBe(git(root, "rev-parse", "HEAD").trim());
    const files = filesOf(await read(source.open()));
    expect(files).toEqual(tracked);
    expect(files).toEqual([".gitignore", "apps/server/src/app.ts", "docs/name with space.md", "package.json"]);
  });

  it("in a copy without .git, serves the archive the build made in the checkout: the same files", async () => {
    const made = spawnSync(process.execPath, [path.join(installRoot, "scripts/source-archive.mjs"), root, built]);
    expect(made.status).toBe(0);
    const copy = path.join(tmp, "copy");
    fs.cpSync(root, copy, { recursive: true });
    fs.rmSync(path.join(copy, ".git"), { recursive: true });
    const source = await findSourceArchive(copy, built);
    expect(source).toEqual({ kind: "file", path: built });
    expect(filesOf(fs.readFileSync(built))).toEqual(tracked);
  });

  it("has nothing to serve for a copy without .git and without a built archive, even inside another checkout", async () => {
    // Inside the checkout above: git must not find that repository by searching upwards.
    const nested = path.join(root, "var/unpacked");
    write(nested, "package.json", "{}\n");
    expect(await findSourceArchive(nested, path.join(tmp, "none.tar.gz"))).toEqual({ kind: "none" });
    // The build refuses to make an archive from such a copy's files.
    const target = path.join(tmp, "nested.tar.gz");
    const made = spawnSync(process.execPath, [path.join(installRoot, "scripts/source-archive.mjs"), nested, target], {
      encoding: "utf8",
    });
    expect(made.status).toBe(0);
    expect(made.stderr).toContain("is not a git checkout");
    expect(fs.existsSync(target)).toBe(false);
  });
});

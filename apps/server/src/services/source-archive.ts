// The running version's source for /code: exactly the files git tracks, never the working tree around them (a data
// directory, uploads, node_modules or anyone's untracked files may sit there).
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Readable } from "node:stream";

export type SourceArchive =
  /** A git checkout: `git archive` of the commit checked out when the server started. */
  | { kind: "git"; commit: string; open(): Readable }
  /** A copy without .git: the archive its build made from the tracked files. */
  | { kind: "file"; path: string }
  | { kind: "none" };

/** The commit checked out at `root`, or null when `root` is not itself a git checkout (or git cannot read it). */
function headCommit(root: string): Promise<string | null> {
  if (!fs.existsSync(path.join(root, ".git"))) return Promise.resolve(null);
  return new Promise((resolve) => {
    // --git-dir names this checkout's own repository: no search upwards into a repository the copy may sit in.
    execFile("git", ["--git-dir", path.join(root, ".git"), "rev-parse", "--verify", "HEAD^{commit}"], (error, out) =>
      resolve(error ? null : out.trim()),
    );
  });
}

/** Finds what /code serves for the installation at `root`; `builtArchive` is the build's archive. */
export async function findSourceArchive(root: string, builtArchive: string): Promise<SourceArchive> {
  const commit = await headCommit(root);
  if (commit) {
    return {
      kind: "git",
      commit,
      open() {
        // Arguments as a list, never through a shell.
        const child = spawn(
          "git",
          ["--git-dir", path.join(root, ".git"), "archive", "--format=tar.gz", "--prefix=tracemill/", commit],
          { stdio: ["ignore", "pipe", "ignore"] },
        );
        child.on("error", () => child.stdout.destroy(new Error("git could not run")));
        child.on("exit", (code) => {
          if (code !== 0) child.stdout.destroy(new Error(`git archive exited with ${code}`));
        });
        return child.stdout;
      },
    };
  }
  if (fs.existsSync(builtArchive)) return { kind: "file", path: builtArchive };
  return { kind: "none" };
}

// tracemill libraries add|list|remove against a real SQLite file: what the command writes is read back from the
// database itself, and every refusal is one line with exit status 1 that leaves the database as it was.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "./run-cli.js";

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-cli-libraries-")));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const data = path.join(tmp, "data");
const captures = path.join(tmp, "captures");
fs.mkdirSync(path.join(captures, "2024"), { recursive: true });
fs.writeFileSync(path.join(captures, "readme.txt"), "not a directory");
// The directory is stored as its real path: a link to it names the same place.
fs.symlinkSync(captures, path.join(tmp, "link-to-captures"));

const libraries = (...args: string[]) => runCli(["libraries", ...args, "--data", data]);

/** The libraries table as another program reads it. */
function rows(file = path.join(data, "tracemill.sqlite")): { name: string; dir: string }[] {
  const db = new SqliteDatabase(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare("select name, dir from libraries order by name").all() as never;
  } finally {
    db.close();
  }
}

describe("tracemill libraries", () => {
  it("adds a directory under a name, stored as its absolute real path", () => {
    const relative = path.relative(process.cwd(), path.join(tmp, "link-to-captures"));
    const added = runCli(["libraries", "add", "lab-2024", relative, "--data", data], { cwd: process.cwd() });
    expect(added.stderr).toBe("");
    expect(added.status).toBe(0);
    expect(added.stdout).toBe(`added library lab-2024: ${captures}\n`);
    expect(rows()).toEqual([{ name: "lab-2024", dir: captures }]);
  });

  it("refuses a bad name, a missing directory, a file and a name taken, in one line each, adding nothing", () => {
    const refusals: [string[], string][] = [
      [["Lab", captures], 'tracemill: invalid library name "Lab": 1 to 64 lower-case letters, digits'],
      [["../x", captures], 'tracemill: invalid library name "../x"'],
      [["x", path.join(tmp, "nowhere")], `tracemill: ${path.join(tmp, "nowhere")}: no such directory`],
      [["x", path.join(captures, "readme.txt")], `tracemill: ${path.join(captures, "readme.txt")}: not a directory`],
      [["lab-2024", tmp], `tracemill: a library named lab-2024 already exists (${captures}); remove it first`],
    ];
    for (const [args, message] of refusals) {
      const result = libraries("add", ...args);
      expect([args, result.status]).toEqual([args, 1]);
      expect(result.stderr.startsWith(message), result.stderr).toBe(true);
      expect(result.stderr.trim().split("\n")).toHaveLength(1);
    }
    expect(rows()).toEqual([{ name: "lab-2024", dir: captures }]);
  });

  it("lists the libraries as text and as JSON", () => {
    expect(libraries("add", "archive", path.join(captures, "2024")).status).toBe(0);
    const text = libraries("list");
    expect(text.status).toBe(0);
    const lines = text.stdout
      .trim()
      .split("\n")
      .map((line) => line.split("\t"));
    expect(lines.map(([name, dir]) => [name, dir])).toEqual([
      ["archive", path.join(captures, "2024")],
      ["lab-2024", captures],
    ]);
    expect(lines.every(([, , created]) => !Number.isNaN(Date.parse(created)))).toBe(true);
    const json = JSON.parse(libraries("list", "--json").stdout);
    expect(json.map((l: { name: string; dir: string }) => [l.name, l.dir])).toEqual([
      ["archive", path.join(captures, "2024")],
      ["lab-2024", captures],
    ]);
  });

  it("removes a library by name, leaving its files, and refuses a name it does not have", () => {
    const removed = libraries("remove", "archive");
    expect(removed.status).toBe(0);
    expect(removed.stdout).toBe("removed library archive (its files are untouched)\n");
    expect(fs.existsSync(path.join(captures, "2024"))).toBe(true);
    expect(rows()).toEqual([{ name: "lab-2024", dir: captures }]);
    const unknown = libraries("remove", "archive");
    expect(unknown.status).toBe(1);
    expect(unknown.stderr).toBe("tracemill: no library named archive (there are lab-2024)\n");
  });

  it("writes to the database --database names, as serve and worker would", () => {
    const file = path.join(tmp, "elsewhere.sqlite");
    const added = runCli(["libraries", "add", "other", captures, "--data", data, "--database", file]);
    expect(added.status).toBe(0);
    expect(rows(file)).toEqual([{ name: "other", dir: captures }]);
    expect(rows().map((r) => r.name)).toEqual(["lab-2024"]);
  });
});

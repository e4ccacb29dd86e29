// The command's wiring: version, help, usage errors, and `serve` answering health and the web shell.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PASS_PROCESS_FLAGS } from "@tracemill/engine";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliPath, repoRoot, runCli, type ServedApp, serve } from "./run-cli.js";

const rootVersion = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version as string;

describe("tracemill", () => {
  it("prints the repository's version, with -V too, and the same through the commands with another option", () => {
    for (const args of [["--version"], ["-V"], ["--debug", "--version"]]) {
      const result = runCli(args);
      expect([args, result.status, result.stdout]).toEqual([args, 0, `${rootVersion}\n`]);
    }
  });

  it("runs as an executable file, with the engine's pass flags on its first line", () => {
    const result = spawnSync(cliPath, ["--version"], { encoding: "utf8", timeout: 60_000 });
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(rootVersion);
    const shebang = fs.readFileSync(cliPath, "utf8").split("\n")[0];
    expect(shebang.startsWith("#!/usr/bin/env -S node ")).toBe(true);
    expect(shebang.split(" ").slice(3)).toEqual([...PASS_PROCESS_FLAGS]);
  });

  it("lists its commands in --help", () => {
    const result = runCli(["--help"]);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain("Usage: tracemill");
    expect(result.stdout).toMatch(/serve \[options\]/);
  });

  it("exits 2 on an unknown command, with the reason on stderr", () => {
    const result = runCli(["no-such-command"]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown command 'no-such-command'");
  });

  it("refuses an output file that is a directory or in a missing directory, before reading anything", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-outputs-"));
    try {
      const capture = path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");
      const commands = [
        ["extract", capture, "-o", dir],
        ["extract", capture, "-o", path.join(dir, "f.csv"), "--summary", dir],
        ["ipt", capture, "-o", dir],
        ["ipt", capture, "-o", path.join(dir, "i.txt"), "--csv", dir],
        ["label", capture, "--attacks", capture, "-o", dir],
        ["images", capture, "-n", "4", "-o", dir],
        ["merge", capture, capture, "-o", dir],
      ];
      for (const args of commands) {
        const result = runCli(args);
        expect(result.status, args.join(" ")).toBe(2);
        expect(result.stderr, args.join(" ")).toContain(`${dir} is a directory: give a file name`);
      }
      const missing = runCli(["extract", capture, "-o", path.join(dir, "no-such-dir", "f.csv")]);
      expect(missing.status).toBe(2);
      expect(missing.stderr).toContain(`${path.join(dir, "no-such-dir")} is not an existing directory`);
      // A default output name is checked too (commander parses only the values given).
      fs.mkdirSync(path.join(dir, "ipt.txt"));
      const byDefault = runCli(["ipt", capture], { cwd: dir });
      expect(byDefault.status).toBe(1);
      expect(byDefault.stderr).toBe("tracemill: ipt.txt is a directory: give a file name\n");
      expect(fs.readdirSync(dir)).toEqual(["ipt.txt"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("tracemill serve", () => {
  let app: ServedApp;
  beforeAll(async () => {
    app = await serve();
  });
  afterAll(async () => {
    await app?.stop();
  });

  it("answers GET /api/health with the version", async () => {
    const response = await fetch(`${app.url}/api/health`);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ok", version: rootVersion });
  });

  it("serves the web app's shell at / and at client routes", async () => {
    for (const route of ["/", "/ui/login", "/some/unknown/path"]) {
      const response = await fetch(`${app.url}${route}`);
      expect(response.status, route).toBe(200);
      const html = await response.text();
      expect(html, route).toContain('<div id="root"></div>');
    }
  });

  it("answers unknown API paths with 404 and a message list", async () => {
    const response = await fetch(`${app.url}/api/no-such-thing`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ messages: ["Not found"] });
  });

  it("creates its data directory", () => {
    expect(fs.existsSync(app.dataDir)).toBe(true);
  });
});

// The command's wiring: version, help, usage errors, and `serve` answering health and the web shell.
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, runCli, type ServedApp, serve } from "./run-cli.js";

const rootVersion = JSON.parse(fs.readFileSync(path.join(repoRoot, "package.json"), "utf8")).version as string;

describe("tracemill", () => {
  it("prints the repository's version", () => {
    const result = runCli(["--version"]);
    expect(result.status).toBe(0);
    expect(result.stdout.trim()).toBe(rootVersion);
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

// /code, /sampledatasets (signed-in only), the OpenAPI document, rulesets, the web app beside the API, and the
// security headers of every kind of answer.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { repoRoot } from "../../cli/test/run-cli.js";
import { Client, startServer, waitForStatus } from "./server-harness.js";

const json = { "Content-Type": "application/json" };

let app: ServedApp;
let client: Client;
beforeAll(async () => {
  app = await startServer();
  client = new Client(app.url);
  await client.signUp("Reader");
});
afterAll(async () => {
  await app?.stop();
});

/** A one-packet pcap. */
function fixturePcap(): Buffer {
  const frame = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 40000, dstPort: 80 })));
  return Buffer.from(pcapFile([capturedPacket(frame, { linkType: 1 })]));
}

function listTarGz(content: Buffer): string[] {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-tar-")), "a.tar.gz");
  fs.writeFileSync(file, content);
  const listing = spawnSync("tar", ["-tzf", file], { encoding: "utf8" });
  expect(listing.status).toBe(0);
  return listing.stdout.split("\n").filter(Boolean);
}

describe("downloads for signed-in users", () => {
  it("/code sends exactly the tracked files of the running commit, not a data directory or untracked file in the tree", async () => {
    // A server whose data directory sits inside the working tree (`--data ./var/db`), beside an untracked secret.
    const mark = Math.random().toString(36).slice(2);
    const dataDir = path.join(repoRoot, `var-${mark}`, "db");
    const secret = path.join(repoRoot, `secret-${mark}.env`);
    fs.writeFileSync(secret, "TOKEN=1\n");
    const inTree = await startServer({ dataDir });
    try {
      const reader = new Client(inTree.url);
      expect((await reader.call("GET", "/code")).body).toEqual(["Please sign in"]);
      await reader.signUp("Reader");
      const upload = await reader.upload("upload.pcap", fixturePcap());
      expect(upload.status).toBe(201);
      const response = await reader.raw("GET", "/code");
      expect(response.status).toBe(200);
      expect(response.headers.get("content-disposition")).toContain('filename="app.tar.gz"');
      const names = listTarGz(Buffer.from(await response.arrayBuffer()));
      const files = names.filter((n) => !n.endsWith("/")).map((n) => n.replace(/^tracemill\//, ""));
      // The tracked files of HEAD (in a clean checkout the same list as `git ls-files`).
      const tracked = spawnSync("git", ["ls-tree", "-r", "--name-only", "HEAD"], { cwd: repoRoot, encoding: "utf8" });
      expect(files.sort()).toEqual(tracked.stdout.split("\n").filter(Boolean).sort());
      expect(names.some((n) => n.includes(`var-${mark}`) || n.includes(`secret-${mark}`))).toBe(false);
      expect(fs.readdirSync(path.join(dataDir, "files"))).toHaveLength(1);
    } finally {
      await inTree.stop();
      fs.rmSync(path.join(repoRoot, `var-${mark}`), { recursive: true, force: true });
      fs.rmSync(secret, { force: true });
    }
  });

  it("/sampledatasets sends the sample captures with the datasets generated from them", async () => {
    expect((await new Client(app.url).call("GET", "/sampledatasets")).status).toBe(401);
    const response = await client.raw("GET", "/sampledatasets");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain('filename="sampledatasets.tar.gz"');
    const names = listTarGz(Buffer.from(await response.arrayBuffer()));
    expect(names).toEqual(
      expect.arrayContaining([
        "./captures/log4shell-exploit.pcap",
        "./datasets/log4shell-exploit/features.csv",
        "./datasets/wikipedia-browse/summary.json",
      ]),
    );
  });
});

describe("API description and lists", () => {
  it("serves an OpenAPI document generated from the contracts, covering the original calls too", async () => {
    const { status, body } = await client.call("GET", "/api/openapi.json");
    expect(status).toBe(200);
    expect(body.openapi).toBe("3.1.0");
    for (const route of ["/api/jobs", "/api/jobs/{id}/events", "/singup", "/dowload", "/extract/ipts", "/code"]) {
      expect(Object.keys(body.paths)).toContain(route);
    }
    const signup = body.paths["/api/auth/register"].post.requestBody.content["application/json"].schema;
    expect(signup.required).toEqual(expect.arrayContaining(["userName", "email", "password", "Renewpassword"]));
  });

  it("lists the engine's rulesets", async () => {
    const { body } = await client.call("GET", "/api/rulesets");
    expect(body.map((r: { id: string }) => r.id)).toContain("default");
  });

  it("answers unknown API paths with 404 and a message list, whatever the method", async () => {
    expect((await client.call("DELETE", "/api/nothing")).body).toEqual({ messages: ["Not found"] });
  });
});

describe("security headers", () => {
  it("are on pages, assets, the API, errors, event streams and downloads", async () => {
    const page = await client.raw("GET", "/");
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(await page.text())?.[1];
    expect(asset).toBeDefined();
    const upload = await client.upload("one.pcap", fixturePcap());
    const created = await client.call("POST", "/api/jobs", {
      title: "headers",
      capability: "extract",
      params: { activeTimeout: 1 },
      inputs: { capture: { fileId: upload.body.id } },
    });
    const job = await waitForStatus(client, created.body.id, ["succeeded"]);
    const answers: [string, number, Response][] = [
      ["/", 200, page],
      ["/ui/dataSets", 200, await client.raw("GET", "/ui/dataSets")],
      [asset as string, 200, await client.raw("GET", asset as string)],
      ["/api/health", 200, await client.raw("GET", "/api/health")],
      ["/api/jobs (signed out)", 401, await new Client(app.url).raw("GET", "/api/jobs")],
      ["/api/nothing", 404, await client.raw("GET", "/api/nothing")],
      ["cross-site POST", 403, await client.raw("POST", "/api/jobs", { headers: { "Sec-Fetch-Site": "cross-site" } })],
      ["/api/jobs/:id/events", 200, await client.raw("GET", `/api/jobs/${job.id}/events`)],
      ["/api/jobs/:id/outputs/:name", 200, await client.raw("GET", `/api/jobs/${job.id}/outputs/features.csv`)],
      ["/api/jobs/:id/outputs.zip", 200, await client.raw("GET", `/api/jobs/${job.id}/outputs.zip`)],
      ["/dowload", 200, await client.raw("POST", "/dowload", { body: JSON.stringify({ _id: job.id }), headers: json })],
      ["/code", 200, await client.raw("GET", "/code")],
    ];
    for (const [what, status, response] of answers) {
      expect(response.status, what).toBe(status);
      if (!response.bodyUsed) await response.arrayBuffer();
      const headers = Object.fromEntries(response.headers);
      expect(headers, what).toMatchObject({
        "x-content-type-options": "nosniff",
        "referrer-policy": "same-origin",
        "cross-origin-opener-policy": "same-origin",
        "cross-origin-resource-policy": "same-origin",
        "x-frame-options": "DENY",
      });
      const csp = headers["content-security-policy"] ?? "";
      expect(csp.split(";"), what).toEqual(
        expect.arrayContaining([
          "default-src 'self'",
          "script-src 'self'",
          "frame-ancestors 'none'",
          "object-src 'none'",
        ]),
      );
      expect(csp, what).not.toContain("unsafe-inline");
    }
  });
});

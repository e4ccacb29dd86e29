// /code, /sampledatasets (signed-in only), the OpenAPI document, rulesets, and the web app beside the API.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, startServer } from "./server-harness.js";

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

function listTarGz(content: Buffer): string[] {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-tar-")), "a.tar.gz");
  fs.writeFileSync(file, content);
  const listing = spawnSync("tar", ["-tzf", file], { encoding: "utf8" });
  expect(listing.status).toBe(0);
  return listing.stdout.split("\n").filter(Boolean);
}

describe("downloads for signed-in users", () => {
  it("/code sends the running version's source as app.tar.gz", async () => {
    expect((await new Client(app.url).call("GET", "/code")).body).toEqual(["Please sign in"]);
    const response = await client.raw("GET", "/code");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain('filename="app.tar.gz"');
    const names = listTarGz(Buffer.from(await response.arrayBuffer()));
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/(^|\/)package\.json$/)]));
    expect(names.some((n) => n.includes("apps/server/src/app.ts"))).toBe(true);
    expect(names.some((n) => n.includes("node_modules/"))).toBe(false);
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

// GET /api/jobs/:id/lineage and the `from` of a job's inputs against a real server with the test engine (whose extract
// writes copy.pcap, a capture the next job can read): who sees what, 404 for what one may not read, no server path.
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { repoRoot } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

let app: ServedApp;
let owner: Client;
let other: Client;
let anonymous: Client;
/** first → second → third, each an extraction of the one before's copy.pcap; the owner's, all private at first. */
const chain: { id: string; title: string }[] = [];

beforeAll(async () => {
  app = await startServer({ workers: 2 });
  owner = new Client(app.url);
  other = new Client(app.url);
  anonymous = new Client(app.url);
  await owner.signUp("Owner");
  await other.signUp("Other");
  const upload = await owner.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"));
  let input: Record<string, string> = { fileId: upload.body.id };
  for (const title of ["first", "second", "third"]) {
    const created = await owner.call("POST", "/api/jobs", {
      title,
      capability: "extract",
      params: { activeTimeout: 1 },
      inputs: { capture: input },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await waitForStatus(owner, created.body.id, ["succeeded"]);
    chain.push({ id: created.body.id, title });
    input = { jobId: created.body.id, output: "copy.pcap" };
  }
});
afterAll(async () => {
  await app?.stop();
});

const node = (i: number, isOwner: boolean) => ({
  id: chain[i].id,
  title: chain[i].title,
  capability: "extract",
  status: "succeeded",
  warning: false,
  isOwner,
});
const edge = (from: number, to: number) => ({
  from: chain[from].id,
  to: chain[to].id,
  output: "copy.pcap",
  role: "capture",
});

/** The server paths a text names (none is the answer wanted). */
const serverPathsIn = (text: string) =>
  [app.dataDir, fs.realpathSync(app.dataDir), repoRoot].filter((dir) => text.includes(dir));

describe("lineage", () => {
  it("gives the owner the whole chain from its middle, and each input the job it came from", async () => {
    const answer = await owner.call("GET", `/api/jobs/${chain[1].id}/lineage`);
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      nodes: [node(1, true), node(0, true), node(2, true)],
      edges: [edge(0, 1), edge(1, 2)],
    });
    const second = (await owner.call("GET", `/api/jobs/${chain[1].id}`)).body;
    expect(second.inputs).toMatchObject([
      { role: "capture", name: "copy.pcap", from: { jobId: chain[0].id, output: "copy.pcap", title: "first" } },
    ]);
    const first = (await owner.call("GET", `/api/jobs/${chain[0].id}`)).body;
    expect(first.inputs[0].name).toBe("raw101_ipv4.pcap");
    expect(first.inputs[0].from).toBeUndefined();
  });

  it("answers 404 for a job one may not read, signed in or not, and for no job", async () => {
    for (const client of [other, anonymous]) {
      const answer = await client.call("GET", `/api/jobs/${chain[1].id}/lineage`);
      expect(answer.status).toBe(404);
      expect(answer.body).toEqual({ messages: [expect.any(String)] });
    }
    expect((await owner.call("GET", "/api/jobs/no-such-job/lineage")).status).toBe(404);
  });

  it("shows another user a public job without its private neighbours, and names no server path", async () => {
    expect((await owner.call("PATCH", `/api/jobs/${chain[1].id}`, { public: true })).status).toBe(200);
    for (const client of [other, anonymous]) {
      const lineage = await client.call("GET", `/api/jobs/${chain[1].id}/lineage`);
      expect(lineage.body).toEqual({ nodes: [node(1, false)], edges: [] });
      const job = await client.call("GET", `/api/jobs/${chain[1].id}`);
      expect(job.body.inputs).toHaveLength(1);
      expect(job.body.inputs[0].from).toBeUndefined();
      for (const text of [JSON.stringify(lineage.body), JSON.stringify(job.body)]) {
        expect(serverPathsIn(text)).toEqual([]);
        expect(text).not.toContain(chain[0].id);
        expect(text).not.toContain(chain[2].id);
      }
    }
    // Once the first is public too, the others see it and the link to it.
    expect((await owner.call("PATCH", `/api/jobs/${chain[0].id}`, { public: true })).status).toBe(200);
    const lineage = await other.call("GET", `/api/jobs/${chain[1].id}/lineage`);
    expect(lineage.body).toEqual({ nodes: [node(1, false), node(0, false)], edges: [edge(0, 1)] });
    const job = await other.call("GET", `/api/jobs/${chain[1].id}`);
    expect(job.body.inputs[0].from).toEqual({
      jobId: chain[0].id,
      output: "copy.pcap",
      title: "first",
      capability: "extract",
    });
  });

  it("is described in the OpenAPI document", async () => {
    const doc = (await anonymous.call("GET", "/api/openapi.json")).body;
    expect(Object.keys(doc.paths["/api/jobs/{id}/lineage"])).toEqual(["get"]);
  });
});

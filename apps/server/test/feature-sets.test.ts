// Feature sets over the API: GET /api/feature-sets lists what a job may choose (signed out too), a job's choice is
// checked at creation, and an extraction job's CSV carries the chosen sets' columns after the session key.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

/** SPEC.md §3's session key, the first six columns of every features CSV. */
const SESSION_KEY = ["protocol", "ts", "srcIP", "srcPrt", "dstIP", "dstPrt"];

let app: ServedApp;
beforeAll(async () => {
  app = await startServer({ fake: false, workers: 1 });
});
afterAll(async () => {
  await app?.stop();
});

describe("feature sets over the API", () => {
  it("lists every set with its typed columns, to anyone", async () => {
    const listed = await new Client(app.url).call("GET", "/api/feature-sets");
    expect(listed.status).toBe(200);
    const tracemill = listed.body.find((set: { name: string }) => set.name === "tracemill");
    expect(tracemill.description.length).toBeGreaterThan(10);
    // SPEC.md §3: 50 columns, the session key's six then 44 features, the first a duration in seconds.
    expect(tracemill.columns).toHaveLength(44);
    expect(tracemill.columns[0]).toEqual({ name: "flowduration", type: "real" });
    for (const set of listed.body) {
      for (const column of set.columns) expect(["int", "real", "time", "string", "list"]).toContain(column.type);
    }
  });

  it("refuses an unknown set or none at creation, saying what there is", async () => {
    const client = new Client(app.url);
    await client.signUp("Sets");
    const upload = await client.upload("wikipedia-browse.pcap", fixture("wikipedia-browse.pcap"));
    const create = (features: unknown) =>
      client.call("POST", "/api/jobs", {
        title: "sets",
        capability: "extract",
        params: { features },
        inputs: { capture: { fileId: upload.body.id } },
      });
    const unknown = await create(["tracemill", "no-such-set"]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.messages[0]).toMatch(/^Invalid parameter features: no feature set "no-such-set" \(there are /);
    expect((await create([])).status).toBe(400);
    const compat = (features: string[], capability = "extract") =>
      client.call("POST", "/api/jobs", {
        title: "compat",
        capability,
        params: { features, cicCompat: true },
        inputs: { capture: { fileId: upload.body.id } },
      });
    expect((await compat(["cic", "tracemill"])).body.messages).toEqual([
      'Invalid parameter cicCompat: it needs the feature set "cic" alone',
    ]);
    expect((await compat(["cic"], "ipt")).body.messages[0]).toMatch(/^Invalid parameter cicCompat: only extraction/);
    expect((await compat(["cic"])).status).toBe(201);
    expect((await create(["Bad Name"])).status).toBe(400);
  });

  it("writes the chosen sets' columns after the session key", async () => {
    const client = new Client(app.url);
    await client.signUp("Sets2");
    const listed = (await client.call("GET", "/api/feature-sets")).body;
    const upload = await client.upload("wikipedia-browse.pcap", fixture("wikipedia-browse.pcap"));
    const created = await client.call("POST", "/api/jobs", {
      title: "every set",
      capability: "extract",
      params: { features: listed.map((set: { name: string }) => set.name) },
      inputs: { capture: { fileId: upload.body.id } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await waitForStatus(client, created.body.id, ["succeeded", "failed"], 60_000);
    expect(done.error).toBeNull();
    const csv = await (await client.raw("GET", `/api/jobs/${created.body.id}/outputs/features.csv`)).text();
    const header = csv.slice(0, csv.indexOf("\n")).split(",");
    const expected = [
      ...SESSION_KEY,
      ...listed.flatMap((set: { columns: { name: string }[] }) => set.columns.map((c) => c.name)),
    ];
    expect(header).toEqual(expected);
    expect(done.summary.options.features).toEqual(listed.map((set: { name: string }) => set.name));
  });

  it("passes nfstream's sequence length through to the engine", async () => {
    const client = new Client(app.url);
    await client.signUp("Sets3");
    const upload = await client.upload("wikipedia-browse.pcap", fixture("wikipedia-browse.pcap"));
    const created = await client.call("POST", "/api/jobs", {
      title: "short sequences",
      capability: "extract",
      params: { features: ["nfstream"], splt: 3 },
      inputs: { capture: { fileId: upload.body.id } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const done = await waitForStatus(client, created.body.id, ["succeeded", "failed"], 60_000);
    expect(done.error).toBeNull();
    expect(done.summary.options.splt).toBe(3);
    const csv = await (await client.raw("GET", `/api/jobs/${created.body.id}/outputs/features.csv`)).text();
    // Every splt_ps cell (a quoted JSON array, the second of the three) holds 3 numbers.
    const lists = csv
      .trimEnd()
      .split("\n")
      .slice(1)
      .map((line) => line.match(/"\[[^\]]*\]"/g) ?? []);
    expect(lists.length).toBeGreaterThan(0);
    for (const cells of lists) expect(cells.map((cell) => JSON.parse(cell.slice(1, -1)).length)).toEqual([3, 3, 3]);
    const refused = await client.call("POST", "/api/jobs", {
      title: "too long",
      capability: "extract",
      params: { features: ["nfstream"], splt: 256 },
      inputs: { capture: { fileId: upload.body.id } },
    });
    expect(refused.status).toBe(400);
  });
});

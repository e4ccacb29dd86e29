// The feature explorer over HTTP: an extraction's CSV and Parquet outputs answer the same columns and figures; who
// may read is the downloads' rule (owner, or anyone for a public job; 404 otherwise, signed out too); wrong columns
// and parameters answer 400 naming them; odd tables (rows of the wrong length, cells that are no numbers, an empty
// file) answer clearly; no answer names a server path; deleting the job deletes the explorer's cache.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, finishedJob as finishedJobOf, fixture, startServer } from "./server-harness.js";

const oddTables = path.join(path.dirname(fileURLToPath(import.meta.url)), "odd-tables-engine.mjs");

let app: ServedApp;
let owner: Client;
let other: Client;
let anonymous: Client;
let captureId: string;
/** Every answer's body, for the check that none names a server path. */
const bodies: string[] = [];

beforeAll(async () => {
  app = await startServer({ fake: false, env: { TRACEMILL_TEST_ENGINE_MODULE: oddTables } });
  owner = new Client(app.url);
  other = new Client(app.url);
  anonymous = new Client(app.url);
  await owner.signUp("Explorer");
  await other.signUp("Someone");
  const upload = await owner.upload("wikipedia-browse.pcap", fixture("wikipedia-browse.pcap"));
  captureId = upload.body.id;
});
afterAll(async () => {
  await app?.stop();
});

const finishedJob = (capability: string, params: Record<string, unknown>, isPublic = false) =>
  finishedJobOf(owner, { capability, params, captureId, public: isPublic });

async function get(client: Client, url: string) {
  const answer = await client.call("GET", url);
  bodies.push(JSON.stringify(answer.body));
  return answer;
}

const columnsOf = (job: string, output: string) => `/api/jobs/${job}/outputs/${encodeURIComponent(output)}/columns`;
const columnOf = (job: string, output: string, column: string, query = "") =>
  `${columnsOf(job, output)}/${encodeURIComponent(column)}${query}`;

describe("the explorer's API", () => {
  let csvJob: string;
  let parquetJob: string;
  let oddJob: string;

  beforeAll(async () => {
    [csvJob, parquetJob, oddJob] = await Promise.all([
      finishedJob("extract", { features: ["tracemill", "cic"] }),
      finishedJob("extract", { features: ["tracemill", "cic"], format: "parquet" }, true),
      finishedJob("images", {}),
    ]);
  });

  it("lists a CSV's and a Parquet file's columns alike, and answers a column with the same figures", async () => {
    const csv = await get(owner, columnsOf(csvJob, "features.csv"));
    const parquet = await get(owner, columnsOf(parquetJob, "features.parquet"));
    expect(csv.status).toBe(200);
    expect(parquet.status).toBe(200);
    expect(csv.body).toMatchObject({ output: "features.csv", format: "csv", splitBy: [], problems: [] });
    expect(parquet.body).toMatchObject({ output: "features.parquet", format: "parquet" });
    expect(parquet.body.columns).toEqual(csv.body.columns);
    expect(parquet.body.rows).toBe(csv.body.rows);
    // The job counted its sessions; the table has one row per session.
    const job = await get(owner, `/api/jobs/${csvJob}`);
    expect(csv.body.rows).toBe(job.body.sessions);
    expect(csv.body.columns).toContainEqual({ name: "srcIP", type: "text" });
    expect(csv.body.columns).toContainEqual({ name: "Flow Bytes/s", type: "numeric" });

    for (const [column, query] of [
      ["Flow Bytes/s", "?bins=12&scale=log"],
      ["mean_flowpktl", ""],
      ["dstIP", ""],
    ]) {
      const fromCsv = await get(owner, columnOf(csvJob, "features.csv", column, query));
      const fromParquet = await get(owner, columnOf(parquetJob, "features.parquet", column, query));
      expect(fromCsv.status, JSON.stringify(fromCsv.body)).toBe(200);
      expect({ ...fromParquet.body, output: "features.csv" }).toEqual(fromCsv.body);
      expect(fromCsv.body.column).toBe(column);
    }
    const flowRate = await get(owner, columnOf(csvJob, "features.csv", "Flow Bytes/s", "?bins=12&scale=log"));
    expect(flowRate.body.histogram.scale).toBe("log");
    expect(flowRate.body.histogram.bins.length).toBeLessThanOrEqual(12);
    expect(flowRate.body.histogram.bins.reduce((sum: number, bin: { count: number }) => sum + bin.count, 0)).toBe(
      flowRate.body.count,
    );
  });

  it("lets only the owner read a private job's tables, and anyone a public job's, signed out too", async () => {
    expect((await get(other, columnsOf(csvJob, "features.csv"))).status).toBe(404);
    expect((await get(other, columnOf(csvJob, "features.csv", "ts"))).status).toBe(404);
    expect((await get(anonymous, columnsOf(csvJob, "features.csv"))).status).toBe(404);
    expect((await get(anonymous, columnOf(csvJob, "features.csv", "ts"))).status).toBe(404);
    expect((await get(other, columnsOf(parquetJob, "features.parquet"))).status).toBe(200);
    const signedOut = await get(anonymous, columnOf(parquetJob, "features.parquet", "dstPrt"));
    expect(signedOut.status).toBe(200);
    expect(signedOut.body.stats.min).toBeGreaterThan(0);
    expect((await get(owner, columnsOf(csvJob, "nothing.csv"))).status).toBe(404);
  });

  it("answers 400 naming a column that is not there, a wrong parameter, a split the table cannot make", async () => {
    const missing = await get(owner, columnOf(csvJob, "features.csv", "no such"));
    expect(missing.status).toBe(400);
    expect(missing.body.messages).toEqual(['Unknown column "no such": features.csv has no column of that name']);
    const bins = await get(owner, columnOf(csvJob, "features.csv", "ts", "?bins=500"));
    expect(bins.status).toBe(400);
    expect(bins.body.messages[0]).toMatch(/^Invalid query parameter bins: /);
    const scale = await get(owner, columnOf(csvJob, "features.csv", "ts", "?scale=cubic"));
    expect(scale.body.messages[0]).toMatch(/^Invalid query parameter scale: /);
    const unknown = await get(owner, columnOf(csvJob, "features.csv", "ts", "?colour=red"));
    expect(unknown.body.messages).toEqual(["Unknown query parameter colour (the parameters are bins, scale, by)"]);
    const by = await get(owner, columnOf(csvJob, "features.csv", "ts", "?by=label"));
    expect(by.status).toBe(400);
    expect(by.body.messages).toEqual(["Invalid query parameter by: features.csv has no label column to split by"]);
    const summary = await get(owner, columnsOf(csvJob, "summary.json"));
    expect(summary.status).toBe(400);
    expect(summary.body.messages).toEqual(["summary.json is not a table: the explorer reads CSV and Parquet outputs"]);
  });

  it("answers odd tables clearly: rows of the wrong length, a cell that is no number, an empty file", async () => {
    const ragged = await get(owner, columnsOf(oddJob, "ragged.csv"));
    expect(ragged.status).toBe(200);
    expect(ragged.body).toMatchObject({ rows: 4, splitBy: ["label"] });
    expect(ragged.body.problems).toEqual([
      "ragged.csv: 1 rows have fewer cells than the header's 3 (their last cells count as missing) and 1 more (the " +
        "cells past the header's are left out); the first, at line 3, has 2",
    ]);
    const bytes = await get(owner, columnOf(oddJob, "ragged.csv", "bytes", "?by=label"));
    expect(bytes.body).toMatchObject({
      rows: 4,
      count: 3,
      invalid: 1,
      firstInvalid: { row: 3, line: 4, text: "x" },
      stats: { min: 10, max: 40 },
    });
    // Groups by their rows in the table (label 1 has two, one of them with no number), ties by name.
    expect(bytes.body.split.groups).toEqual([
      { name: "1", count: 1 },
      { name: "(empty)", count: 1 },
      { name: "0", count: 1 },
    ]);
    const empty = await get(owner, columnsOf(oddJob, "empty.csv"));
    expect(empty.status).toBe(200);
    expect(empty.body).toMatchObject({ rows: 0, columns: [], problems: ["empty.csv is empty: it has no header line"] });
    expect((await get(owner, columnsOf(oddJob, "notes.txt"))).status).toBe(400);
  });

  it("is described in the OpenAPI document, with the column as a path parameter and the query's three", async () => {
    const { body } = await get(anonymous, "/api/openapi.json");
    const column = body.paths["/api/jobs/{id}/outputs/{name}/columns/{column}"].get;
    expect(column.parameters.map((p: { name: string; in: string }) => `${p.in} ${p.name}`)).toEqual([
      "path id",
      "path name",
      "path column",
      "query bins",
      "query scale",
      "query by",
    ]);
    expect(body.paths["/api/jobs/{id}/outputs/{name}/columns"].get.responses["200"]).toBeDefined();
  });

  it("names no server path in any answer", () => {
    expect(bodies.length).toBeGreaterThan(20);
    for (const body of bodies) {
      expect(body).not.toContain(app.dataDir);
      expect(body).not.toMatch(/\/(tmp|work|home|root)\//);
    }
  });

  it("deletes the explorer's cache with the job", async () => {
    const cache = path.join(app.dataDir, "jobs", oddJob, "cache", "ragged.csv.explore");
    expect(fs.existsSync(path.join(cache, "table.json"))).toBe(true);
    expect((await owner.call("DELETE", `/api/jobs/${oddJob}`)).status).toBe(204);
    expect(fs.existsSync(path.join(app.dataDir, "jobs", oddJob))).toBe(false);
    expect((await get(owner, columnsOf(oddJob, "ragged.csv"))).status).toBe(404);
  });
});

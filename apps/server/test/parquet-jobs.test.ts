// Extract jobs choosing Parquet over the API: the job lists features.parquet and its summary, and the file, read back
// by an independent reader (hyparquet), holds as many sessions as a CSV job on the same upload, the first one alike.
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

let app: ServedApp;
let client: Client;
let captureId: string;
beforeAll(async () => {
  app = await startServer({ fake: false, workers: 2 });
  client = new Client(app.url);
  await client.signUp("Parquet");
  const upload = await client.upload("wikipedia-browse.pcap", fixture("wikipedia-browse.pcap"));
  expect(upload.status).toBe(201);
  captureId = upload.body.id;
});
afterAll(async () => {
  await app?.stop();
});

const create = (params: Record<string, unknown>) =>
  client.call("POST", "/api/jobs", {
    title: `extract ${JSON.stringify(params)}`,
    capability: "extract",
    params,
    inputs: { capture: { fileId: captureId } },
  });

async function extracted(params: Record<string, unknown>) {
  const created = await create(params);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const job = await waitForStatus(client, created.body.id, ["succeeded", "failed", "cancelled"], 60_000);
  expect(job.error).toBeNull();
  expect(job.status).toBe("succeeded");
  return job;
}

const download = (jobId: string, name: string) => client.raw("GET", `/api/jobs/${jobId}/outputs/${name}`);
const PAR1 = [0x50, 0x41, 0x52, 0x31];

/** A time read as nanoseconds, tagged so a comparison knows it from an integer column. */
interface Nanoseconds {
  ns: bigint;
}

/** A Parquet value equal to the CSV's cell: the cell's text parsed the way its column's type says. */
function sameValue(cell: string, value: unknown): boolean {
  if (typeof value === "bigint") return BigInt(cell) === value;
  if (typeof value === "number") return Number(cell) === value;
  if (typeof value === "string") return cell === value;
  const time = value as Nanoseconds;
  // The CSV writes times as seconds with nine decimals (docs/formats.md, "Parquet output").
  const [whole, fraction = ""] = cell.split(".");
  return BigInt(whole) * 1_000_000_000n + BigInt(fraction.padEnd(9, "0")) === time.ns;
}

describe("extract jobs writing Parquet", () => {
  it("list features.parquet and the summary, a Parquet file of the CSV job's sessions", async () => {
    const [parquetJob, csvJob] = await Promise.all([extracted({ format: "parquet" }), extracted({})]);
    expect(parquetJob.params.format).toBe("parquet");
    expect(csvJob.params.format).toBe("csv");
    expect(parquetJob.outputs.map((o: { name: string; kind: string }) => [o.name, o.kind]).sort()).toEqual([
      ["features.parquet", "features-parquet"],
      ["summary.json", "summary-json"],
    ]);

    const response = await download(parquetJob.id, "features.parquet");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/vnd.apache.parquet");
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect(bytes.length).toBe(parquetJob.outputs.find((o: { name: string }) => o.name === "features.parquet").size);
    expect([...bytes.subarray(0, 4)]).toEqual(PAR1);
    expect([...bytes.subarray(bytes.length - 4)]).toEqual(PAR1);

    const csv = (await (await download(csvJob.id, "features.csv")).text()).trimEnd().split("\n");
    const header = csv[0].split(",");
    const csvRows = csv.slice(1);
    expect(csvRows.length).toBeGreaterThan(10);
    expect(csvRows.length).toBe(csvJob.summary.csv.rows);

    const file = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
    expect(Number(parquetMetadata(file).num_rows)).toBe(csvRows.length);
    const rows = await parquetReadObjects({
      file,
      compressors,
      parsers: { timestampFromNanoseconds: (ns: bigint): Nanoseconds => ({ ns }) },
    });
    expect(rows).toHaveLength(csvRows.length);
    expect(parquetJob.summary.parquet.rows).toBe(csvRows.length);
    expect(parquetJob.summary).not.toHaveProperty("csv");

    // The session key's ts, addresses and ports and every feature, by name, in the CSV's column order.
    expect(Object.keys(rows[0])).toEqual(header);
    const first = csvRows[0].split(",");
    expect(first).toHaveLength(header.length);
    const differing = header.filter((name, i) => !sameValue(first[i], rows[0][name]));
    expect(differing).toEqual([]);
    expect(typeof rows[0].srcIP).toBe("string");
    expect(typeof rows[0].ts).toBe("object");

    // The summary output is the job's summary, naming the Parquet file as the job lists it.
    const summaryFile = await (await download(parquetJob.id, "summary.json")).json();
    expect(summaryFile.parquet).toEqual(parquetJob.summary.parquet);
    expect(summaryFile.parquet.name).toBe("features.parquet");
  });

  it("refuses a format it does not write, naming the parameter", async () => {
    const answer = await create({ format: "xlsx" });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toHaveLength(1);
    expect(answer.body.messages[0]).toMatch(/^Invalid parameter format: /);
    expect(answer.body.messages[0]).toContain('"parquet"');
  });
});

// Jobs over several captures, through the API with the real engine: the job runs one part per capture and ends with
// one output whose rows are the single-capture jobs' rows one capture after the other (checked against jobs run on each
// capture alone), plus each capture's own files; a failing capture fails the job naming it; refusals; cancel; delete.
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unzipBuffer } from "../../../test/helpers/read-zip.js";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

const NAMES = ["wikipedia-browse.pcap", "http-bro-org.pcap", "dns53.pcap"];
const DONE = ["succeeded", "failed", "cancelled"];

let app: ServedApp;
let client: Client;
const ids: string[] = [];
beforeAll(async () => {
  app = await startServer({ fake: false, workers: 2 });
  client = new Client(app.url);
  await client.signUp("Parts");
  for (const name of NAMES) {
    const upload = await client.upload(name, fixture(name));
    expect(upload.status).toBe(201);
    ids.push(upload.body.id);
  }
});
afterAll(async () => {
  await app?.stop();
});

async function created(capability: string, inputs: Record<string, unknown>, params: Record<string, unknown> = {}) {
  const answer = await client.call("POST", "/api/jobs", { title: `${capability} parts`, capability, params, inputs });
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body;
}

async function finished(capability: string, inputs: Record<string, unknown>, params: Record<string, unknown> = {}) {
  const job = await created(capability, inputs, params);
  return waitForStatus(client, job.id, DONE, 90_000);
}

const text = async (jobId: string, name: string) =>
  (await client.raw("GET", `/api/jobs/${jobId}/outputs/${encodeURIComponent(name)}`)).text();
const bytes = async (jobId: string, name: string) =>
  new Uint8Array(await (await client.raw("GET", `/api/jobs/${jobId}/outputs/${name}`)).arrayBuffer());
const outputNames = (job: { outputs: { name: string }[] }) => job.outputs.map((o) => o.name).sort();

describe("a job over several captures", () => {
  it("runs one part per capture and combines their rows in the order the captures were given", async () => {
    const captures = ids.map((fileId) => ({ fileId }));
    const [combined, ...singles] = await Promise.all([
      finished("extract", { capture: captures }),
      ...captures.map((capture) => finished("extract", { capture })),
    ]);
    expect(combined.error).toBeNull();
    expect(combined.status).toBe("succeeded");
    expect(combined.parts.map((p: { capture: string; status: string }) => [p.capture, p.status])).toEqual(
      NAMES.map((name) => [name, "succeeded"]),
    );
    expect(combined.inputs.map((i: { name: string; role: string }) => [i.role, i.name])).toEqual(
      NAMES.map((name) => ["capture", name]),
    );
    expect(outputNames(combined)).toEqual(
      [
        "features.csv",
        "summary.json",
        "01-wikipedia-browse.features.csv",
        "01-wikipedia-browse.summary.json",
        "02-http-bro-org.features.csv",
        "02-http-bro-org.summary.json",
        "03-dns53.features.csv",
        "03-dns53.summary.json",
      ].sort(),
    );

    // The independent computation: the same captures, each in a job of its own.
    const single = await Promise.all(singles.map((job) => text(job.id, "features.csv")));
    const header = single[0].slice(0, single[0].indexOf("\n") + 1);
    const expected = header + single.map((csv) => csv.slice(header.length)).join("");
    expect(await text(combined.id, "features.csv")).toBe(expected);
    expect(await text(combined.id, "02-http-bro-org.features.csv")).toBe(single[1]);

    const sessions = singles.map((job) => (job.summary.sessions as { total: number }).total);
    expect(combined.summary.captures).toBe(3);
    expect(combined.summary.sessions.total).toBe(sessions.reduce((a, b) => a + b, 0));
    expect(combined.summary.rows).toEqual({ name: "features.csv", rows: sessions.reduce((a, b) => a + b, 0) });
    expect(combined.summary.parts.map((p: { capture: string }) => p.capture)).toEqual(NAMES);

    // Parts are the job's: My Jobs lists the job once, not its parts.
    const mine = await client.call("GET", "/api/jobs");
    expect(mine.body.jobs.filter((job: { title: string }) => job.title.startsWith("extract parts"))).toHaveLength(4);
    expect(mine.body.jobs.some((job: { title: string }) => job.title.includes("capture 1 of 3"))).toBe(false);
  });

  it("combines Parquet row groups into one file whose footer holds the combined summary", async () => {
    const job = await finished(
      "extract",
      { capture: ids.slice(0, 2).map((fileId) => ({ fileId })) },
      { format: "parquet" },
    );
    expect(job.status).toBe("succeeded");
    const file = await bytes(job.id, "features.parquet");
    const buffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
    const rows = await parquetReadObjects({ file: buffer, compressors });
    const parts = await Promise.all(
      ["01-wikipedia-browse.features.parquet", "02-http-bro-org.features.parquet"].map(async (name) => {
        const part = await bytes(job.id, name);
        return parquetReadObjects({
          file: part.buffer.slice(part.byteOffset, part.byteOffset + part.byteLength),
          compressors,
        });
      }),
    );
    expect(rows.length).toBe(parts[0].length + parts[1].length);
    expect(rows).toEqual([...parts[0], ...parts[1]]);
    const metadata = parquetMetadata(buffer);
    const summary = JSON.parse(
      metadata.key_value_metadata?.find((kv) => kv.key === "tracemill.summary")?.value ?? "{}",
    );
    expect(summary.captures).toBe(2);
    expect(summary.rows.rows).toBe(rows.length);
  });

  it("joins images zips: one CSV, the images numbered on, a manifest pointing into both", async () => {
    const captures = ids.slice(0, 2).map((fileId) => ({ fileId }));
    const params = { flowsPerImage: 4 };
    const [combined, ...singles] = await Promise.all([
      finished("images", { capture: captures }, params),
      ...captures.map((capture) => finished("images", { capture }, params)),
    ]);
    expect(combined.status).toBe("succeeded");
    const unzip = async (jobId: string) => unzipBuffer(Buffer.from(await bytes(jobId, "images.zip")));
    const [joined, first, second] = await Promise.all([combined, ...singles].map((job) => unzip(job.id)));
    const images = (zip: Record<string, Buffer>) => Object.keys(zip).filter((name) => name.startsWith("images/"));
    const firstImages = images(first).length;
    expect(images(joined)).toHaveLength(firstImages + images(second).length);
    const csv = (zip: Record<string, Buffer>) => zip["features.csv"].toString();
    const header = csv(first).slice(0, csv(first).indexOf("\n") + 1);
    expect(csv(joined)).toBe(csv(first) + csv(second).slice(header.length));
    // The second capture's first image, renumbered after the first capture's.
    const renamed = `images/image-${String(firstImages + 1).padStart(6, "0")}.png`;
    expect(joined[renamed].equals(second["images/image-000001.png"])).toBe(true);
    const firstRows = csv(first).trimEnd().split("\n").length - 1;
    const lines = (zip: Record<string, Buffer>) => zip["manifest.csv"].toString().trimEnd().split("\n");
    expect(lines(joined)[1 + firstRows]).toBe(
      lines(second)[1].replace(/^images\/image-000001\.png,(\d+),(\d+)/, (_, row, csvRow) =>
        [renamed, row, Number(csvRow) + firstRows].join(","),
      ),
    );
    expect(lines(joined)).toHaveLength(lines(first).length + lines(second).length - 1);
  });

  it("fails when one capture fails, naming that capture and its reason", async () => {
    // A gzip capture whose stream stops half-way: accepted on upload (its start is a pcap), refused when inflated.
    const whole = zlib.gzipSync(fixture("http-bro-org.pcap"));
    const upload = await client.upload("cut.pcap.gz", whole.subarray(0, Math.floor(whole.length / 2)));
    expect(upload.status, JSON.stringify(upload.body)).toBe(201);
    const job = await finished("extract", { capture: [{ fileId: ids[2] }, { fileId: upload.body.id }] });
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/^Capture 2 of 2 \(cut\.pcap\.gz\) failed: .*cut\.pcap\.gz/);
    expect(job.parts[1].status).toBe("failed");
    expect(job.outputs).toEqual([]);
  });

  it("refuses lists where they do not combine", async () => {
    const sanitize = await client.call("POST", "/api/jobs", {
      title: "t",
      capability: "sanitize",
      inputs: { capture: ids.map((fileId) => ({ fileId })) },
    });
    expect(sanitize.status).toBe(400);
    expect(sanitize.body.messages.join()).toMatch(/A sanitize job takes one capture/);
    const attacks = await client.call("POST", "/api/jobs", {
      title: "t",
      capability: "label",
      inputs: { capture: { fileId: ids[0] }, attacks: ids.map((fileId) => ({ fileId })) },
    });
    expect(attacks.status).toBe(400);
    expect(attacks.body.messages.join()).toMatch(/Only the capture input takes several files \(attacks has 3\)/);
    const empty = await client.call("POST", "/api/jobs", {
      title: "t",
      capability: "extract",
      inputs: { capture: [] },
    });
    expect(empty.status).toBe(400);
  });

  it("deletes the job with its parts and their files", async () => {
    const job = await finished("ipt", { capture: ids.slice(1).map((fileId) => ({ fileId })) });
    expect(job.status).toBe("succeeded");
    expect(outputNames(job)).toContain("ipt.txt");
    const jobsDir = path.join(app.dataDir, "jobs");
    const before = fs.readdirSync(jobsDir).length;
    expect((await client.call("DELETE", `/api/jobs/${job.id}`)).status).toBe(204);
    // The job's directory and its two parts' directories went.
    expect(fs.readdirSync(jobsDir).length).toBe(before - 3);
  });
});

describe("cancelling a job over several captures", () => {
  let idle: ServedApp;
  let owner: Client;
  beforeAll(async () => {
    // No workers: the parts stay queued, so the cancel meets them there.
    idle = await startServer({ fake: false, workers: 0 });
    owner = new Client(idle.url);
    await owner.signUp("Idle");
  });
  afterAll(async () => {
    await idle?.stop();
  });

  it("cancels the job and every part", async () => {
    const files = [];
    for (const name of NAMES.slice(0, 2)) files.push((await owner.upload(name, fixture(name))).body.id);
    const answer = await owner.call("POST", "/api/jobs", {
      title: "to cancel",
      capability: "extract",
      inputs: { capture: files.map((fileId) => ({ fileId })) },
    });
    expect(answer.status).toBe(201);
    expect(answer.body.status).toBe("running");
    expect(answer.body.parts.map((p: { status: string }) => p.status)).toEqual(["queued", "queued"]);
    const cancelled = await owner.call("POST", `/api/jobs/${answer.body.id}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.status).toBe("cancelled");
    expect(cancelled.body.parts.map((p: { status: string }) => p.status)).toEqual(["cancelled", "cancelled"]);
  });
});

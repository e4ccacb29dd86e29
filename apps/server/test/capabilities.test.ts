// One job of each capability end to end on the real engine (no test hook): upload, run in a worker, download.
import { createHash } from "node:crypto";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

let app: ServedApp;
let client: Client;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startServer({ fake: false, workers: 2 });
  client = new Client(app.url);
  await client.signUp("Engine");
  const names = [
    "pcap-be-us_pptp.pcap",
    "pcap-le-ns_sll_tcp-handshake-nano.pcap",
    "pyidstools_ipv6-alert.unified2",
    "classification.config",
  ];
  for (const name of names) {
    const answer = await client.upload(name, fixture(name));
    expect(answer.status).toBe(201);
    ids[name] = answer.body.id;
  }
});
afterAll(async () => {
  await app?.stop();
});

async function run(capability: string, inputs: Record<string, unknown>, params: Record<string, unknown> = {}) {
  const created = await client.call("POST", "/api/jobs", { title: capability, capability, params, inputs });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const job = await waitForStatus(client, created.body.id, ["succeeded", "failed", "cancelled"], 60_000);
  expect(job.error).toBeNull();
  expect(job.status).toBe("succeeded");
  return job;
}

const sha256 = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
const text = async (id: string, name: string) => (await client.raw("GET", `/api/jobs/${id}/outputs/${name}`)).text();
const outputNames = (job: { outputs: { name: string }[] }) => job.outputs.map((o) => o.name).sort();
const capture = () => ({ capture: { fileId: ids["pcap-be-us_pptp.pcap"] } });

describe("capabilities on the real engine", () => {
  it("extract: the session CSV and its summary", async () => {
    const job = await run("extract", capture());
    expect(outputNames(job)).toEqual(["features.csv", "summary.json"]);
    const csv = (await text(job.id, "features.csv")).trim().split("\n");
    expect(csv[0].split(",")).toContain("flowduration");
    expect(csv.length - 1).toBe(job.summary.csv.rows);
    expect(job.summary.csv.rows).toBeGreaterThan(0);
    // The summary names the input as uploaded, not by the id it is stored under, with the digest taken at upload.
    expect(job.summary.input.name).toBe("pcap-be-us_pptp.pcap");
    expect(job.summary.input.sha256).toBe(sha256(fixture("pcap-be-us_pptp.pcap")));
  });

  it("a gzip upload is named in the summary as uploaded, without .gz", async () => {
    const upload = await client.upload(
      "handshake.pcap.gz",
      gzipSync(fixture("pcap-le-ns_sll_tcp-handshake-nano.pcap")),
    );
    expect(upload.status).toBe(201);
    const job = await run("extract", { capture: { fileId: upload.body.id } });
    expect(job.summary.input.name).toBe("handshake.pcap");
    // The job reads the inflated capture, which the summary's digest is of (the upload's is of the gzip file).
    expect(upload.body.sha256).toBe(sha256(gzipSync(fixture("pcap-le-ns_sll_tcp-handshake-nano.pcap"))));
    expect(job.summary.input.sha256).toBe(sha256(fixture("pcap-le-ns_sll_tcp-handshake-nano.pcap")));
  });

  it("a capture damaged part-way: the sessions before the damage, and the damage named as the user knows the file", async () => {
    const whole = fixture("pcap-be-us_pptp.pcap");
    const upload = await client.upload("cut.pcap", whole.subarray(0, whole.length - 7));
    expect(upload.status).toBe(201);
    const job = await run("extract", { capture: { fileId: upload.body.id } });
    expect(job.summary.complete).toBe(false);
    expect(job.summary.csv.rows).toBeGreaterThan(0);
    const { message, offset } = job.summary.damage;
    expect(message.startsWith(`cut.pcap: damaged capture at byte ${offset} (after `)).toBe(true);
    // No path of the server's data directory reaches the user, in the summary or its file.
    expect(JSON.stringify(job.summary)).not.toContain(app.dataDir);
    expect(await text(job.id, "summary.json")).not.toContain(app.dataDir);
  });

  it("ipt: inter-packet times per session beside the CSV", async () => {
    const job = await run("ipt", capture(), { signed: true });
    expect(outputNames(job)).toEqual(expect.arrayContaining(["features.csv", "ipt.txt"]));
    const lines = (await text(job.id, "ipt.txt")).trim().split("\n");
    const rows = (await text(job.id, "features.csv")).trim().split("\n").length - 1;
    expect(lines).toHaveLength(rows);
  });

  it("images: a zip of grayscale images", async () => {
    const job = await run("images", capture(), { flowsPerImage: 2 });
    expect(outputNames(job)).toContain("images.zip");
    const zip = Buffer.from(await (await client.raw("GET", `/api/jobs/${job.id}/outputs/images.zip`)).arrayBuffer());
    expect(zip.subarray(0, 2).toString("latin1")).toBe("PK");
  });

  it("label (multiclass) from unified2 alerts and a classification.config", async () => {
    const job = await run(
      "label",
      {
        ...capture(),
        alerts: { fileId: ids["pyidstools_ipv6-alert.unified2"] },
        classification: { fileId: ids["classification.config"] },
      },
      { mode: "multiclass" },
    );
    expect(outputNames(job)).toContain("classified.csv");
    expect(job.summary.labels.method).toBe("alerts");
    expect(job.summary.input.name).toBe("pcap-be-us_pptp.pcap");
    expect(job.summary.options).toMatchObject({
      alerts: "pyidstools_ipv6-alert.unified2",
      classification: "classification.config",
    });
  });

  it("sanitize: Suricata splits the capture into clean and attack captures", async () => {
    const job = await run("sanitize", capture(), { ruleset: "default" });
    const kinds = job.outputs.map((o: { kind: string }) => o.kind);
    expect(kinds).toEqual(expect.arrayContaining(["clean-pcap", "attacks-pcap"]));
  });
});

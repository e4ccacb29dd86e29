// The merge → label chain on the real engine: a label job on a merge job's output labels from its provenance record
// (exact, no attack capture needed); an uploaded capture keeps 5-tuple matching with its attack capture.
import fs from "node:fs";
import path from "node:path";
import { jobMessages } from "@tracemill/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

const BACKGROUND = "pcap-be-us_pptp.pcap";
const ATTACKS = "pcap-le-ns_sll_tcp-handshake-nano.pcap";

let app: ServedApp;
let client: Client;
const ids: Record<string, string> = {};
let merged: { id: string; outputs: { name: string; kind: string }[] };
let mergedName: string;
/** Sessions of the attack capture on its own, as "protocol srcIP srcPrt dstIP dstPrt". */
let attackSessions: string[];

beforeAll(async () => {
  app = await startServer({ fake: false, workers: 2 });
  client = new Client(app.url);
  await client.signUp("Chain");
  for (const name of [BACKGROUND, ATTACKS]) {
    const answer = await client.upload(name, fixture(name));
    expect(answer.status).toBe(201);
    ids[name] = answer.body.id;
  }
  merged = await run("merge", { background: { fileId: ids[BACKGROUND] }, attacks: { fileId: ids[ATTACKS] } });
  mergedName = merged.outputs.find((o) => o.kind === "merged-pcap")!.name;
  const extracted = await run("extract", { capture: { fileId: ids[ATTACKS] } });
  attackSessions = rows(await text(extracted.id, "features.csv")).map(session);
});
afterAll(async () => {
  await app?.stop();
});

const create = (capability: string, inputs: Record<string, unknown>, params: Record<string, unknown> = {}) =>
  client.call("POST", "/api/jobs", { title: capability, capability, params, inputs });

async function run(capability: string, inputs: Record<string, unknown>, params: Record<string, unknown> = {}) {
  const created = await create(capability, inputs, params);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const job = await waitForStatus(client, created.body.id, ["succeeded", "failed", "cancelled"], 60_000);
  expect(job.error).toBeNull();
  expect(job.status).toBe("succeeded");
  return job;
}

const text = async (id: string, name: string) => (await client.raw("GET", `/api/jobs/${id}/outputs/${name}`)).text();
const rows = (csv: string) =>
  csv
    .trim()
    .split("\n")
    .slice(1)
    .map((row) => row.split(","));
/** protocol, srcIP, srcPrt, dstIP, dstPrt: the first columns of every feature CSV but ts. */
const session = (row: string[]) => [row[0], ...row.slice(2, 6)].join(" ");
const mergedCapture = () => ({ capture: { jobId: merged.id, output: mergedName } });

async function labelled(jobId: string) {
  const all = rows(await text(jobId, "labelled.csv"));
  return {
    attacks: all
      .filter((r) => r.at(-1) === "1")
      .map(session)
      .sort(),
    benign: all.filter((r) => r.at(-1) === "0"),
  };
}

describe("merge → label", () => {
  it("labels a merge's output from its provenance record, with no attack capture", async () => {
    const job = await run("label", mergedCapture(), { mode: "binary" });
    expect(job.summary.labels.method).toBe("provenance");
    expect(job.summary.labels.attackPacketsInProvenance).toBeGreaterThan(0);
    expect(job.summary.labels.attackPacketsInSessions).toBe(job.summary.labels.attackPacketsInProvenance);
    const { attacks, benign } = await labelled(job.id);
    expect(attacks).toEqual([...attackSessions].sort());
    expect(benign.length).toBeGreaterThan(0);
    expect(job.summary.labels.sessions).toEqual({ "0": benign.length, "1": attacks.length });
    const roles = job.inputs.map((i: { role: string }) => i.role).sort();
    expect(roles).toEqual(["capture", "provenance"]);
    const record = job.inputs.find((i: { role: string }) => i.role === "provenance");
    const source = merged.outputs.find((o) => o.kind === "provenance-json") as unknown as {
      name: string;
      sha256: string;
    };
    expect(record).toMatchObject({ name: source.name, format: "provenance", sha256: source.sha256 });
  });

  it("with the merged attack capture given too, the provenance still labels", async () => {
    const job = await run("label", { ...mergedCapture(), attacks: { fileId: ids[ATTACKS] } });
    expect(job.summary.labels.method).toBe("provenance");
    expect((await labelled(job.id)).attacks).toEqual([...attackSessions].sort());
  });

  it("refuses another attack capture beside a merge's output, keeping no copies", async () => {
    const stored = () => fs.readdirSync(path.join(app.dataDir, "files")).length;
    const before = stored();
    const answer = await create("label", { ...mergedCapture(), attacks: { fileId: ids[BACKGROUND] } });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toEqual([jobMessages.attacksNotMerged]);
    expect(stored()).toBe(before);
  });

  it("takes no provenance input from a client", async () => {
    const source = merged.outputs.find((o) => o.kind === "provenance-json")!;
    const answer = await create("label", {
      capture: { fileId: ids[BACKGROUND] },
      attacks: { fileId: ids[ATTACKS] },
      provenance: { jobId: merged.id, output: source.name },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toEqual([`${jobMessages.inputNotAllowed} provenance`]);
  });

  it("an uploaded capture is labelled by 5-tuples and needs its attack capture", async () => {
    const bytes = Buffer.from(
      await (await client.raw("GET", `/api/jobs/${merged.id}/outputs/${mergedName}`)).arrayBuffer(),
    );
    const upload = await client.upload(mergedName, bytes);
    expect(upload.status).toBe(201);
    const missing = await create("label", { capture: { fileId: upload.body.id } }, { mode: "binary" });
    expect(missing.status).toBe(400);
    expect(missing.body.messages).toEqual([`${jobMessages.inputRequired} attacks`]);
    const job = await run("label", { capture: { fileId: upload.body.id }, attacks: { fileId: ids[ATTACKS] } });
    expect(job.summary.labels.method).toBe("tuples");
    expect(job.inputs.map((i: { role: string }) => i.role).sort()).toEqual(["attacks", "capture"]);
    expect((await labelled(job.id)).attacks).toEqual([...attackSessions].sort());
  });
});

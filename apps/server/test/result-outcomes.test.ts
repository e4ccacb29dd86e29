// What a finished job says about itself, against a real server and engine: a suspect result's warnings (job JSON,
// summary, summary.json), Retry of a failed job as a new job, and — for a job of every capability — nothing another
// user or a visitor can read names a server directory. The rulesets sit where a default install keeps them
// (<data>/rulesets), with a ruleset holding a rule Suricata refuses, so its error names the rule file.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { repoRoot } from "../../cli/test/run-cli.js";
import { Client, startServer, waitForStatus } from "./server-harness.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-result-outcomes-"));
const dataDir = path.join(tmp, "data");
const T = Date.UTC(2024, 0, 31, 12) / 1000;
const ACK = 0x10;
let app: ServedApp;
let owner: Client;
let other: Client;
let anonymous: Client;

/** Each client port makes one session 10.0.0.1:port → 10.0.0.2:80 of `packets` packets 0.1 s apart. */
function capture(ports: number[], packets: number, src = "10.0.0.1"): Buffer {
  const records = ports.flatMap((port, i) =>
    Array.from({ length: packets }, (_, k) =>
      capturedPacket(ethernet(ipv4({ src, dst: "10.0.0.2" }, tcp({ srcPort: port, dstPort: 80, flags: ACK }))), {
        linkType: 1,
        tsSec: T + i,
        tsNsec: k * 100_000_000,
      }),
    ),
  );
  return Buffer.from(pcapFile(records));
}

/** EVE alerts between two hosts the captures here never hold. */
function unrelatedAlerts(count: number): Buffer {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({
      timestamp: "2024-01-31T12:00:00.100000+0000",
      event_type: "alert",
      src_ip: "192.0.2.1",
      src_port: 2000 + i,
      dest_ip: "192.0.2.2",
      dest_port: 80,
      proto: "TCP",
      alert: { gid: 1, signature_id: 7, rev: 1, signature: "s", category: "Misc activity", severity: 2 },
    }),
  );
  return Buffer.from(`${lines.join("\n")}\n`);
}

beforeAll(async () => {
  fs.mkdirSync(path.join(dataDir, "rulesets/broken"), { recursive: true });
  fs.writeFileSync(
    path.join(dataDir, "rulesets/broken/syn.rules"),
    'alert tcp any any -> any any (msg:"ACK"; flags:A,12; classtype:misc-activity; sid:9300001; rev:1;)\n' +
      'alert tcp any any -> any any (msg:"broken"; no_such_keyword; sid:9300002; rev:1;)\n',
  );
  app = await startServer({ fake: false, workers: 1, dataDir });
  owner = new Client(app.url);
  other = new Client(app.url);
  anonymous = new Client(app.url);
  await owner.signUp("Owner");
  await other.signUp("Other");
});
afterAll(async () => {
  await app?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function upload(name: string, content: Buffer): Promise<string> {
  const answer = await owner.upload(name, content);
  expect(answer.status, JSON.stringify(answer.body)).toBe(201);
  return answer.body.id;
}

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
async function run(request: Record<string, unknown>, statuses = ["succeeded"]): Promise<any> {
  const created = await owner.call("POST", "/api/jobs", { title: "t", public: true, ...request });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const job = await waitForStatus(owner, created.body.id, ["succeeded", "failed", "cancelled"], 90_000);
  expect(statuses, JSON.stringify(job)).toContain(job.status);
  return job;
}

async function outputText(client: Client, id: string, name: string): Promise<string> {
  const response = await client.raw("GET", `/api/jobs/${id}/outputs/${encodeURIComponent(name)}`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer()).toString("latin1");
}

describe("a suspect result", () => {
  it("lists its warnings in the job, its summary and its summary.json: 0 of 4 unrelated alerts matched", async () => {
    const alerts = await upload("other.json", unrelatedAlerts(4));
    const job = await run({
      capability: "label",
      params: { mode: "multiclass" },
      inputs: { capture: { fileId: await upload("web.pcap", capture([1000, 1001], 3)) }, alerts: { fileId: alerts } },
    });
    const message =
      "None of the 4 alerts read matched a session of the capture, so every session is labelled benign: are the alerts from this capture?";
    expect(job.warnings).toEqual([{ code: "no-alerts-matched", message }]);
    expect(job.summary.resultWarnings).toEqual(job.warnings);
    expect(job.summary.labels.classes).toEqual({ benign: 2 });
    const file = JSON.parse(await outputText(owner, job.id, "summary.json"));
    expect(file.resultWarnings).toEqual(job.warnings);
    // The same for everyone who may read it.
    expect((await anonymous.call("GET", `/api/jobs/${job.id}`)).body.warnings).toEqual(job.warnings);
  });

  it("lists none for two sessions of three packets", async () => {
    const job = await run({
      capability: "extract",
      inputs: { capture: { fileId: await upload("two.pcap", capture([1, 2], 3)) } },
    });
    expect(job.summary.sessions.total).toBe(2);
    expect(job.warnings).toEqual([]);
    expect(JSON.parse(await outputText(owner, job.id, "summary.json"))).not.toHaveProperty("resultWarnings");
  });
});

describe("retry", () => {
  // A pcap header and then half a record: merge refuses a damaged background.
  const damaged = capture([1], 3).subarray(0, 24 + 16 + 20);

  it("queues a failed job again as a new job with the same capability, parameters and inputs", async () => {
    const background = await upload("background.pcap", damaged);
    const attacks = await upload("attacks.pcap", capture([7], 2, "10.9.9.9"));
    const failed = await run(
      {
        title: "merge to retry",
        capability: "merge",
        params: { sequential: true },
        inputs: { background: { fileId: background }, attacks: { fileId: attacks } },
      },
      ["failed"],
    );
    expect((await other.call("POST", `/api/jobs/${failed.id}/retry`)).status).toBe(403);
    expect((await anonymous.call("POST", `/api/jobs/${failed.id}/retry`)).status).toBe(401);
    const retried = await owner.call("POST", `/api/jobs/${failed.id}/retry`);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(retried.body.id).not.toBe(failed.id);
    expect(retried.body).toMatchObject({
      title: "merge to retry",
      capability: "merge",
      params: failed.params,
      public: true,
      error: null,
    });
    const roles = (job: { inputs: { role: string; id: string }[] }) => job.inputs.map((i) => [i.role, i.id]).sort();
    expect(roles(retried.body)).toEqual(roles(failed));
    expect(roles(failed)).toEqual([
      ["attacks", attacks],
      ["background", background],
    ]);
    const again = await waitForStatus(owner, retried.body.id, ["failed", "succeeded"], 60_000);
    expect(again.status).toBe("failed");
    expect(again.error).toBe(failed.error);
    // The old job stays as it ended; both are listed.
    expect((await owner.call("GET", `/api/jobs/${failed.id}`)).body).toMatchObject({
      status: "failed",
      error: failed.error,
    });
    const mine = (await owner.call("GET", "/api/jobs")).body.jobs.map((j: { id: string }) => j.id);
    expect(mine).toEqual(expect.arrayContaining([failed.id, retried.body.id]));
  });

  it("refuses a job that succeeded, and a job that does not exist", async () => {
    const job = await run({
      capability: "extract",
      inputs: { capture: { fileId: await upload("ok.pcap", capture([3], 3)) } },
    });
    const answer = await owner.call("POST", `/api/jobs/${job.id}/retry`);
    expect(answer.status).toBe(409);
    expect(answer.body.messages).toEqual(["Only a failed or cancelled job can be retried"]);
    expect((await owner.call("POST", "/api/jobs/no-such-job/retry")).status).toBe(404);
  });
});

describe("what another user or a visitor reads of a public job of every capability", () => {
  /** The server's directories: none may appear in anything shown to someone else. */
  const serverPathsIn = (text: string) =>
    [dataDir, fs.realpathSync(dataDir), path.join(dataDir, "rulesets"), tmp, repoRoot].filter((dir) =>
      text.includes(dir),
    );

  /** Everything a client can read about a job: its JSON (read, listed, the original product's calls), its event stream, each output. */
  async function seenBy(client: Client, id: string): Promise<string> {
    const texts = [
      JSON.stringify((await client.call("GET", `/api/jobs/${id}`)).body),
      JSON.stringify((await client.call("GET", "/api/jobs/public")).body),
      JSON.stringify((await client.call("GET", "/public/dataSets")).body),
      JSON.stringify((await client.call("POST", "/dataSet/", { _id: id })).body),
      await (await client.raw("GET", `/api/jobs/${id}/events`)).text(),
    ];
    const job = (await client.call("GET", `/api/jobs/${id}`)).body;
    expect(job.isOwner).toBe(false);
    for (const output of job.outputs) texts.push(await outputText(client, id, output.name));
    return texts.join("\n");
  }

  it("names no server directory, whatever the capability", async () => {
    const web = await upload("web.pcap", capture([1000, 1001, 1002], 3));
    const second = await upload("web2.pcap", capture([1100, 1101], 3));
    const attacks = await upload("attacks.pcap", capture([7, 8], 2, "10.9.9.9"));
    const alerts = await upload("alerts.json", unrelatedAlerts(2));
    const jobs = [
      await run({ capability: "extract", inputs: { capture: { fileId: web } } }),
      await run({ capability: "extract", inputs: { capture: [{ fileId: web }, { fileId: second }] } }),
      await run({ capability: "ipt", inputs: { capture: { fileId: web } } }),
      await run({ capability: "images", inputs: { capture: { fileId: web } } }),
      await run({ capability: "label", inputs: { capture: { fileId: web }, attacks: { fileId: attacks } } }),
      await run({
        capability: "label",
        params: { mode: "multiclass" },
        inputs: { capture: { fileId: web }, alerts: { fileId: alerts } },
      }),
      await run({ capability: "sanitize", params: { ruleset: "broken" }, inputs: { capture: { fileId: web } } }),
    ];
    const merge = await run({
      capability: "merge",
      inputs: { background: { fileId: web }, attacks: { fileId: attacks } },
    });
    const merged = merge.outputs.find((o: { kind: string }) => o.kind === "merged-pcap").name;
    jobs.push(merge, await run({ capability: "label", inputs: { capture: { jobId: merge.id, output: merged } } }));
    // The sanitize job's rule error names the rule file within the rulesets.
    const sanitize = jobs.find((job) => job.capability === "sanitize");
    expect(sanitize.summary.suricata.ruleErrors).toEqual([
      expect.stringMatching(/no_such_keyword.* from file broken\/syn\.rules at line 2$/),
    ]);
    expect(new Set(jobs.map((job) => job.capability))).toEqual(
      new Set(["extract", "ipt", "images", "label", "sanitize", "merge"]),
    );
    for (const job of jobs) {
      for (const client of [other, anonymous]) {
        const seen = await seenBy(client, job.id);
        expect(seen.length).toBeGreaterThan(1000);
        expect(serverPathsIn(seen), `${job.capability} ${job.id}`).toEqual([]);
      }
    }
  });
});

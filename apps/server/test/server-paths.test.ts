// No server path in what other users see: a public job's JSON (as read, listed and streamed), its summary file and
// outputs, and error answers never name the data directory, the rulesets directory or the installation's directory.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { repoRoot } from "../../cli/test/run-cli.js";
import { Client, startServer, waitForStatus } from "./server-harness.js";

const SYN = 0x02;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-server-paths-"));
const rulesetsDir = path.join(tmp, "rulesets");
let app: ServedApp;
let owner: Client;
let other: Client;

/** Ten SYNs from one client to one server. */
function synCapture(): Buffer {
  const packets = Array.from({ length: 10 }, (_, i) =>
    capturedPacket(
      ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 40000 + i, dstPort: 80, flags: SYN }))),
      {
        linkType: 1,
        tsSec: 1_700_000_000 + i,
      },
    ),
  );
  return Buffer.from(pcapFile(packets));
}

beforeAll(async () => {
  // A server ruleset with one rule Suricata refuses (line 2): its error names the rule file.
  fs.mkdirSync(path.join(rulesetsDir, "broken"), { recursive: true });
  fs.writeFileSync(
    path.join(rulesetsDir, "broken/syn.rules"),
    'alert tcp any any -> any any (msg:"SYN"; flags:S,12; classtype:misc-activity; sid:9300001; rev:1;)\n' +
      'alert tcp any any -> any any (msg:"broken"; no_such_keyword; sid:9300002; rev:1;)\n',
  );
  app = await startServer({ fake: false, workers: 1, env: { TRACEMILL_RULESETS_DIR: rulesetsDir } });
  owner = new Client(app.url);
  other = new Client(app.url);
  await owner.signUp("Owner");
  await other.signUp("Other");
});
afterAll(async () => {
  await app?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** The server paths a text names (none is the answer wanted). */
function serverPathsIn(text: string): string[] {
  return [app.dataDir, fs.realpathSync(app.dataDir), rulesetsDir, repoRoot].filter((dir) => text.includes(dir));
}

/** Everything another user can read about a job: its JSON three ways, its event stream, and each output. */
async function seenByOther(id: string): Promise<string> {
  const texts = [
    JSON.stringify((await other.call("GET", `/api/jobs/${id}`)).body),
    JSON.stringify((await other.call("GET", "/api/jobs/public")).body),
    JSON.stringify((await other.call("GET", "/public/dataSets")).body),
    JSON.stringify((await other.call("POST", "/dataSet/", { _id: id })).body),
    await (await other.raw("GET", `/api/jobs/${id}/events`)).text(),
  ];
  const job = (await other.call("GET", `/api/jobs/${id}`)).body;
  for (const output of job.outputs) {
    const response = await other.raw("GET", `/api/jobs/${id}/outputs/${encodeURIComponent(output.name)}`);
    expect(response.status).toBe(200);
    texts.push(Buffer.from(await response.arrayBuffer()).toString("latin1"));
  }
  return texts.join("\n");
}

describe("a public job as another user sees it", () => {
  it("a sanitize job's rule errors name the rule file within the rulesets, and nothing names a server path", async () => {
    const upload = await owner.upload("syns.pcap", synCapture());
    expect(upload.status).toBe(201);
    const created = await owner.call("POST", "/api/jobs", {
      title: "public sanitize",
      public: true,
      capability: "sanitize",
      params: { ruleset: "broken" },
      inputs: { capture: { fileId: upload.body.id } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const job = await waitForStatus(owner, created.body.id, ["succeeded", "failed"], 60_000);
    expect(job.error).toBeNull();
    expect(job.summary.alerts.bySignature.map((s: { sid: number }) => s.sid)).toEqual([9300001]);
    const ruleErrors: string[] = job.summary.suricata.ruleErrors;
    expect(ruleErrors).toHaveLength(1);
    expect(ruleErrors[0]).toMatch(/no_such_keyword.* from file broken\/syn\.rules at line 2$/);
    const seen = await seenByOther(job.id);
    expect(seen).toContain("broken/syn.rules at line 2");
    expect(serverPathsIn(seen)).toEqual([]);
  });

  it("a failed job's error names the upload, not where it is stored", async () => {
    // A pcap header and then half a record: merge refuses a damaged input.
    const damaged = synCapture().subarray(0, 24 + 16 + 20);
    const background = await owner.upload("background.pcap", damaged);
    const attacks = await owner.upload("attacks.pcap", synCapture());
    const created = await owner.call("POST", "/api/jobs", {
      title: "public merge",
      public: true,
      capability: "merge",
      inputs: { background: { fileId: background.body.id }, attacks: { fileId: attacks.body.id } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const job = await waitForStatus(owner, created.body.id, ["succeeded", "failed"], 60_000);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(/^background\.pcap: /);
    expect(serverPathsIn(await seenByOther(job.id))).toEqual([]);
  });

  it("a message written past the worker (a failed start, a store error) is cleaned when read", async () => {
    const upload = await owner.upload("syns.pcap", synCapture());
    const created = await owner.call("POST", "/api/jobs", {
      title: "public extract",
      public: true,
      capability: "extract",
      inputs: { capture: { fileId: upload.body.id } },
    });
    const id = created.body.id;
    await waitForStatus(owner, id, ["succeeded"], 60_000);
    // As the runner writes one: String(error) of a failed file operation, naming the path it failed on.
    const stored = `The job's results could not be stored: Error: ENOSPC: no space left on device, write '${app.dataDir}/jobs/${id}/out/features.csv'`;
    const db = new SqliteDatabase(path.join(app.dataDir, "tracemill.sqlite"));
    try {
      db.prepare("UPDATE jobs SET status = 'failed', error = ? WHERE id = ?").run(stored, id);
    } finally {
      db.close();
    }
    const seen = (await other.call("GET", `/api/jobs/${id}`)).body;
    expect(seen.error).toBe(
      `The job's results could not be stored: Error: ENOSPC: no space left on device, write 'jobs/${id}/out/features.csv'`,
    );
    expect(serverPathsIn(await seenByOther(id))).toEqual([]);
  });
});

describe("error answers", () => {
  it("an unknown ruleset is refused at once, naming the rulesets there are", async () => {
    const upload = await owner.upload("syns.pcap", synCapture());
    const answer = await owner.call("POST", "/api/jobs", {
      title: "unknown ruleset",
      capability: "sanitize",
      params: { ruleset: "et-open" },
      inputs: { capture: { fileId: upload.body.id } },
    });
    expect(answer.status).toBe(400);
    expect(answer.body.messages).toEqual([
      'Invalid parameter ruleset: no ruleset "et-open" on this server (it has default, broken)',
    ]);
  });

  it("name no server path, whatever is asked", async () => {
    const upload = await owner.upload("syns.pcap", synCapture());
    const answers = [
      await owner.call("POST", "/api/jobs", {
        title: "t",
        capability: "sanitize",
        params: { ruleset: "../../etc" },
        inputs: { capture: { fileId: upload.body.id } },
      }),
      await owner.call("POST", "/api/jobs", {
        title: "t",
        capability: "extract",
        inputs: { capture: { fileId: "x" } },
      }),
      await owner.upload("notes.txt", Buffer.from("nothing a capture would start with")),
      await owner.upload("damaged.pcap.gz", Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 0xff, 0xff, 0xff])),
      await other.call("GET", "/api/jobs/no-such-job/outputs/..%2F..%2Ftracemill.sqlite"),
      await other.call("POST", "/dowload", { _id: "no-such-job", file: "../../tracemill.sqlite" }),
      await new Client(app.url).call("GET", "/code"),
    ];
    for (const answer of answers) expect(answer.status).toBeGreaterThanOrEqual(400);
    expect(serverPathsIn(JSON.stringify(answers.map((a) => a.body)))).toEqual([]);
  });
});

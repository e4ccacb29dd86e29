// Jobs against a real server with the test engine: creation rules and messages, the authorization matrix,
// updates, deletion with files, downloads (file, Range, zip), live progress, and the original product's calls.
import fs from "node:fs";
import path from "node:path";
import { jobMessages } from "@tracemill/contracts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import yauzl from "yauzl";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

let app: ServedApp;
let owner: Client;
let other: Client;
let anonymous: Client;
let captureId: string;

beforeAll(async () => {
  app = await startServer({ workers: 2 });
  owner = new Client(app.url);
  other = new Client(app.url);
  anonymous = new Client(app.url);
  await owner.signUp("Owner");
  await other.signUp("Other");
  captureId = (await owner.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"))).body.id;
});
afterAll(async () => {
  await app?.stop();
});

const extractJob = (extra: Record<string, unknown> = {}) => ({
  title: "Extract test",
  capability: "extract",
  params: { activeTimeout: 5 },
  inputs: { capture: { fileId: captureId } },
  ...extra,
});

async function finishedJob(client: Client, extra: Record<string, unknown> = {}) {
  const created = await client.call("POST", "/api/jobs", extractJob(extra));
  expect(created.status).toBe(201);
  return waitForStatus(client, created.body.id, ["succeeded"]);
}

describe("creating a job", () => {
  it("queues it with defaults, and runs it to success with outputs", async () => {
    const created = await owner.call("POST", "/api/jobs", extractJob({ description: "d" }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      title: "Extract test",
      description: "d",
      public: false,
      capability: "extract",
      params: { idleTimeout: 120, activeTimeout: 5, length: "ip" },
      isOwner: true,
      owner: { userName: "Owner" },
      error: null,
    });
    expect(created.body._id).toBe(created.body.id);
    expect(["queued", "running"]).toContain(created.body.status);
    expect(created.body.inputs).toMatchObject([{ role: "capture", id: captureId, format: "pcap" }]);
    const done = await waitForStatus(owner, created.body.id, ["succeeded"]);
    expect(done.progress).toEqual({ percent: 100, stage: "done" });
    expect(done.outputs.map((o: { name: string }) => o.name)).toEqual(["features.csv", "copy.pcap", "summary.json"]);
    expect(done.summary.bytes).toBe(fixture("raw101_ipv4.pcap").length);
    // The worker hashes each output: the copy of the input has the input's hash.
    const copy = done.outputs.find((o: { name: string }) => o.name === "copy.pcap");
    expect(copy.sha256).toBe(created.body.inputs[0].sha256);
    expect(done.startedAt).not.toBeNull();
    expect(done.finishedAt).not.toBeNull();
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ["no title", { title: " " }, [jobMessages.titleRequired]],
    ["no capability", { capability: undefined }, [jobMessages.capabilityRequired]],
    ["an unknown capability", { capability: "teleport" }, [jobMessages.capabilityRequired]],
    [
      "a parameter out of range",
      { params: { idleTimeout: -1 } },
      ["Invalid parameter idleTimeout: Too small: expected number to be >0"],
    ],
    ["a missing input", { inputs: {} }, [`${jobMessages.inputRequired} capture`]],
    [
      "an input the capability does not take",
      { inputs: { capture: { fileId: "x" }, background: { fileId: "y" } } },
      [`${jobMessages.inputNotAllowed} background`],
    ],
    ["an unknown file", { inputs: { capture: { fileId: "no-such-file" } } }, [jobMessages.fileNotFound]],
  ];
  for (const [name, change, messages] of invalid) {
    it(`answers 400 for ${name}`, async () => {
      const answer = await owner.call("POST", "/api/jobs", extractJob(change));
      expect(answer.status).toBe(400);
      expect(answer.body.messages).toEqual(messages);
    });
  }

  it("needs the mode's inputs for labelling: attacks for binary, alerts for multiclass", async () => {
    const binary = await owner.call("POST", "/api/jobs", { ...extractJob(), capability: "label", params: {} });
    expect(binary.body.messages).toEqual([`${jobMessages.inputRequired} attacks`]);
    const multi = await owner.call("POST", "/api/jobs", {
      ...extractJob(),
      capability: "label",
      params: { mode: "multiclass" },
    });
    expect(multi.body.messages).toEqual([`${jobMessages.inputRequired} alerts`]);
  });

  it("refuses a file of the wrong format for its role, and another user's file", async () => {
    const alerts = (await owner.upload("a.u2", fixture("pyidstools_ipv6-alert.unified2"))).body.id;
    const wrong = await owner.call("POST", "/api/jobs", extractJob({ inputs: { capture: { fileId: alerts } } }));
    expect(wrong.status).toBe(400);
    expect(wrong.body.messages[0]).toContain(jobMessages.wrongFormat);
    expect(wrong.body.messages[0]).toContain("a.u2 is unified2, expected pcap, pcapng, erf");
    const stolen = await other.call("POST", "/api/jobs", extractJob());
    expect(stolen.body.messages).toEqual([jobMessages.fileNotFound]);
  });

  it("takes another readable job's output as input, with no download and re-upload", async () => {
    const source = await finishedJob(owner);
    const chained = await owner.call(
      "POST",
      "/api/jobs",
      extractJob({ inputs: { capture: { jobId: source.id, output: "copy.pcap" } } }),
    );
    expect(chained.status).toBe(201);
    expect(chained.body.inputs[0]).toMatchObject({ name: "copy.pcap", format: "pcap", role: "capture" });
    expect(chained.body.inputs[0].sha256).toBe(source.inputs[0].sha256);
    expect((await waitForStatus(owner, chained.body.id, ["succeeded"])).status).toBe("succeeded");
    // A private job's outputs are not anyone else's input; a non-capture output is refused by format.
    const foreign = await other.call(
      "POST",
      "/api/jobs",
      extractJob({ inputs: { capture: { jobId: source.id, output: "copy.pcap" } } }),
    );
    expect(foreign.body.messages).toEqual([jobMessages.fileNotFound]);
    const csv = await owner.call(
      "POST",
      "/api/jobs",
      extractJob({ inputs: { capture: { jobId: source.id, output: "features.csv" } } }),
    );
    expect(csv.status).toBe(400);
    // A refused request leaves no copied file behind.
    const stored = () => fs.readdirSync(path.join(app.dataDir, "files")).length;
    const before = stored();
    const wrongRole = await owner.call("POST", "/api/jobs", {
      ...extractJob(),
      capability: "label",
      params: { mode: "multiclass" },
      inputs: { capture: { jobId: source.id, output: "copy.pcap" }, alerts: { jobId: source.id, output: "copy.pcap" } },
    });
    expect(wrongRole.status).toBe(400);
    expect(wrongRole.body.messages[0]).toContain(`${jobMessages.wrongFormat} alerts`);
    expect(stored()).toBe(before);
  });

  it("waits for a job to succeed before its outputs can be inputs", async () => {
    const slow = await owner.call("POST", "/api/jobs", extractJob({ params: { activeTimeout: 200 } }));
    const early = await owner.call(
      "POST",
      "/api/jobs",
      extractJob({ inputs: { capture: { jobId: slow.body.id, output: "copy.pcap" } } }),
    );
    expect(early.status).toBe(400);
    expect(early.body.messages).toEqual([jobMessages.notFinished]);
    await owner.call("POST", `/api/jobs/${slow.body.id}/cancel`);
  });

  it("asks anonymous visitors to sign in", async () => {
    expect((await anonymous.call("POST", "/api/jobs", extractJob())).status).toBe(401);
    expect((await anonymous.call("GET", "/api/jobs")).status).toBe(401);
  });
});

describe("authorization matrix", () => {
  let privateJob: { id: string };
  let publicJob: { id: string };
  beforeAll(async () => {
    privateJob = await finishedJob(owner, { title: "Private one" });
    publicJob = await finishedJob(owner, { title: "Public one", public: true });
  });

  const who = () => ({ owner, other, anonymous });
  const expected = {
    private: { owner: [200, 200, 200, 204], other: [404, 404, 404, 404], anonymous: [404, 404, 404, 404] },
    public: { owner: [200, 200, 200, 204], other: [200, 200, 403, 403], anonymous: [200, 200, 401, 401] },
  } as const;

  for (const visibility of ["private", "public"] as const) {
    for (const actor of ["owner", "other", "anonymous"] as const) {
      it(`${actor} × ${visibility}: read, download, update, delete`, async () => {
        const client = who()[actor];
        // The owner's delete is tested on a fresh job so the others still find theirs.
        const job = visibility === "private" ? privateJob : publicJob;
        const target =
          actor === "owner" ? await finishedJob(owner, { public: visibility === "public" }) : (job as { id: string });
        const [read, download, update, remove] = expected[visibility][actor];
        const legacyDownload = () =>
          client.raw("POST", "/dowload", {
            body: JSON.stringify({ _id: target.id }),
            headers: { "Content-Type": "application/json" },
          });
        expect((await client.call("GET", `/api/jobs/${target.id}`)).status).toBe(read);
        expect((await client.call("POST", "/dataSet/", { _id: target.id })).status).toBe(read);
        expect((await client.raw("GET", `/api/jobs/${target.id}/outputs/features.csv`)).status).toBe(download);
        expect((await client.raw("GET", `/api/jobs/${target.id}/outputs.zip`)).status).toBe(download);
        expect((await legacyDownload()).status).toBe(download);
        expect((await client.call("PATCH", `/api/jobs/${target.id}`, { title: "changed" })).status).toBe(update);
        expect((await client.call("DELETE", `/api/jobs/${target.id}`)).status).toBe(remove);
      });
    }
  }

  it("lists public jobs for everyone, private ones only for their owner", async () => {
    const publicIds = (await anonymous.call("GET", "/api/jobs/public")).body.jobs.map((j: { id: string }) => j.id);
    expect(publicIds).toContain(publicJob.id);
    expect(publicIds).not.toContain(privateJob.id);
    const mine = (await owner.call("GET", "/api/jobs")).body.jobs.map((j: { id: string }) => j.id);
    expect(mine).toEqual(expect.arrayContaining([publicJob.id, privateJob.id]));
    expect((await other.call("GET", "/api/jobs")).body.jobs).toEqual([]);
    const legacyPublic = await anonymous.call("GET", "/public/dataSets");
    expect(legacyPublic.body.map((j: { _id: string }) => j._id)).toContain(publicJob.id);
    expect((await anonymous.call("GET", "/public/dataSets")).body.every((j: { isOwner: boolean }) => !j.isOwner)).toBe(
      true,
    );
  });
});

describe("updating and deleting", () => {
  it("changes title, description and public flag, and validates the title", async () => {
    const job = await finishedJob(owner);
    const changed = await owner.call("PATCH", `/api/jobs/${job.id}`, {
      title: "New",
      description: "More",
      public: true,
    });
    expect(changed.body).toMatchObject({ title: "New", description: "More", public: true });
    const bad = await owner.call("PATCH", `/api/jobs/${job.id}`, { title: "" });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual([jobMessages.titleRequired]);
    const legacy = await owner.call("PUT", "/update", { _id: job.id, public: false });
    expect(legacy.body.public).toBe(false);
    expect((await owner.call("PUT", "/update", { title: "x" })).body).toEqual(["_id is required"]);
  });

  it("deletes the job's files with it, and an input shared with another job only with the last one", async () => {
    const upload = (await owner.upload("own.pcap", fixture("pcap-be-us_pptp.pcap"))).body.id;
    const inputs = { capture: { fileId: upload } };
    const first = await finishedJob(owner, { inputs });
    const second = await finishedJob(owner, { inputs });
    const fileOnDisk = path.join(app.dataDir, "files", upload);
    expect(fs.existsSync(path.join(app.dataDir, "jobs", first.id, "out", "features.csv"))).toBe(true);
    expect((await owner.call("DELETE", `/api/jobs/${first.id}`)).status).toBe(204);
    expect(fs.existsSync(path.join(app.dataDir, "jobs", first.id))).toBe(false);
    expect(fs.existsSync(fileOnDisk)).toBe(true);
    expect((await owner.call("POST", "/delete", { _id: second.id })).body).toEqual({ _id: second.id, deleted: true });
    expect(fs.existsSync(fileOnDisk)).toBe(false);
    expect((await owner.call("GET", `/api/jobs/${second.id}`)).status).toBe(404);
  });
});

function unzipNames(buffer: Buffer): Promise<Record<string, string>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(buffer, { lazyEntries: true }, (error, zip) => {
      if (error || !zip) return reject(error);
      const files: Record<string, string> = {};
      zip.on("entry", (entry: yauzl.Entry) => {
        zip.openReadStream(entry, (err, stream) => {
          if (err || !stream) return reject(err);
          const chunks: Buffer[] = [];
          stream.on("data", (c: Buffer) => chunks.push(c));
          stream.on("end", () => {
            files[entry.fileName] = Buffer.concat(chunks).toString("latin1");
            zip.readEntry();
          });
        });
      });
      zip.on("end", () => resolve(files));
      zip.readEntry();
    });
  });
}

describe("downloads", () => {
  let job: { id: string };
  beforeAll(async () => {
    job = await finishedJob(owner, { title: "Résumé: run/1" });
  });

  it("sends one output with a safe, exact file name", async () => {
    const response = await owner.raw("GET", `/api/jobs/${job.id}/outputs/copy.pcap`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toBe(
      `attachment; filename="R_sum_-run-1_copy.pcap"; filename*=UTF-8''${encodeURIComponent("Résumé-run-1_copy.pcap")}`,
    );
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(Buffer.from(await response.arrayBuffer()).equals(fixture("raw101_ipv4.pcap"))).toBe(true);
  });

  it("answers byte ranges with 206, suffix ranges, and 416 past the end", async () => {
    const whole = fixture("raw101_ipv4.pcap");
    const part = await owner.raw("GET", `/api/jobs/${job.id}/outputs/copy.pcap`, { headers: { Range: "bytes=4-9" } });
    expect(part.status).toBe(206);
    expect(part.headers.get("content-range")).toBe(`bytes 4-9/${whole.length}`);
    expect(Buffer.from(await part.arrayBuffer()).equals(whole.subarray(4, 10))).toBe(true);
    const tail = await owner.raw("GET", `/api/jobs/${job.id}/outputs/copy.pcap`, { headers: { Range: "bytes=-5" } });
    expect(Buffer.from(await tail.arrayBuffer()).equals(whole.subarray(whole.length - 5))).toBe(true);
    const past = await owner.raw("GET", `/api/jobs/${job.id}/outputs/copy.pcap`, { headers: { Range: "bytes=9999-" } });
    expect(past.status).toBe(416);
  });

  it("sends every output as one zip, also through /dowload", async () => {
    const response = await owner.raw("GET", `/api/jobs/${job.id}/outputs.zip`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-disposition")).toContain("filename*=UTF-8''R%C3%A9sum%C3%A9-run-1.zip");
    const files = await unzipNames(Buffer.from(await response.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["copy.pcap", "features.csv", "summary.json"]);
    expect(files["features.csv"]).toMatch(/^input,bytes\n/);
    const legacyZip = await owner.raw("POST", "/dowload", {
      body: JSON.stringify({ _id: job.id }),
      headers: { "Content-Type": "application/json" },
    });
    expect(Object.keys(await unzipNames(Buffer.from(await legacyZip.arrayBuffer())))).toHaveLength(3);
    const legacyOne = await owner.raw("POST", "/dowload", {
      body: JSON.stringify({ _id: job.id, file: "features.csv" }),
      headers: { "Content-Type": "application/json" },
    });
    expect(await legacyOne.text()).toBe(files["features.csv"]);
  });

  it("never serves a name that is not one of the job's outputs", async () => {
    for (const name of ["..%2F..%2Ftracemill.sqlite", "nothing.csv", "%2Fetc%2Fpasswd"]) {
      expect((await owner.raw("GET", `/api/jobs/${job.id}/outputs/${name}`)).status).toBe(404);
    }
  });
});

describe("live progress", () => {
  it("streams the job's state as server-sent events until it finishes", async () => {
    const created = await owner.call("POST", "/api/jobs", extractJob({ params: { activeTimeout: 100 } }));
    const response = await owner.raw("GET", `/api/jobs/${created.body.id}/events`);
    expect(response.headers.get("content-type")).toContain("text/event-stream");
    const text = await response.text();
    const events = text
      .split("\n\n")
      .filter((block) => block.startsWith("event: job"))
      .map((block) => JSON.parse(block.split("\ndata: ")[1]));
    expect(events.length).toBeGreaterThanOrEqual(3);
    expect(events.at(-1).status).toBe("succeeded");
    expect(events.some((e) => e.status === "running" && e.progress.stage.startsWith("fake step"))).toBe(true);
    const percents = events.map((e) => e.progress.percent);
    expect([...percents].sort((a, b) => a - b)).toEqual(percents);
  });

  it("does not stream a private job to others", async () => {
    const created = await owner.call("POST", "/api/jobs", extractJob());
    expect((await other.raw("GET", `/api/jobs/${created.body.id}/events`)).status).toBe(404);
  });
});

describe("the original product's dataset calls", () => {
  it("creates datasets with /new and each capability call, lists them with /dataSets", async () => {
    const viaNew = await owner.call("POST", "/new", extractJob({ title: "via new" }));
    expect(viaNew.status).toBe(200);
    expect(viaNew.body.capability).toBe("extract");
    const features = await owner.call("POST", "/extract/features", { title: "legacy", file: captureId });
    expect(features.body).toMatchObject({ capability: "extract", title: "legacy", public: false });
    const attack = (await owner.upload("attack.pcap", fixture("pcap-be-us_pptp.pcap"), "/upfile/badtrafic")).body.id;
    const u2 = (await owner.upload("a.u2", fixture("pyidstools_ipv6-alert.unified2"), "/upfile/u2")).body.id;
    const calls: [string, Record<string, unknown>, string, Record<string, string>][] = [
      [
        "/extract/featuresAndLabeling",
        { badTraffic: attack },
        "label",
        { capture: "raw101_ipv4.pcap", attacks: "attack.pcap" },
      ],
      ["/extract/featuresAndClass", { u2 }, "label", { capture: "raw101_ipv4.pcap", alerts: "a.u2" }],
      ["/clear/dataset", {}, "sanitize", { capture: "raw101_ipv4.pcap" }],
      ["/merge/dataset", { badTraffic: attack }, "merge", { background: "raw101_ipv4.pcap", attacks: "attack.pcap" }],
      ["/extract/images", { params: { flowsPerImage: 4 } }, "images", { capture: "raw101_ipv4.pcap" }],
      ["/extract/ipts", {}, "ipt", { capture: "raw101_ipv4.pcap" }],
    ];
    for (const [url, extra, capability, inputs] of calls) {
      const answer = await owner.call("POST", url, { title: url, file: captureId, ...extra });
      expect(answer.status, url).toBe(200);
      expect(answer.body.capability, url).toBe(capability);
      const byRole = Object.fromEntries(
        answer.body.inputs.map((i: { role: string; name: string }) => [i.role, i.name]),
      );
      expect(byRole, url).toEqual(inputs);
    }
    const missing = await owner.call("POST", "/extract/featuresAndLabeling", { title: "x", file: captureId });
    expect(missing.body).toEqual([`${jobMessages.inputRequired} attacks`]);
    expect((await owner.call("POST", "/extract/ipts", { file: captureId })).body).toEqual([jobMessages.titleRequired]);
    const listed = (await owner.call("GET", "/dataSets")).body.map((j: { title: string }) => j.title);
    expect(listed).toEqual(expect.arrayContaining(["via new", "legacy", "/extract/ipts"]));
    expect((await anonymous.call("GET", "/dataSets")).body).toEqual(["Please sign in"]);
    expect((await owner.call("POST", "/dataSet/", {})).body).toEqual(["_id is required"]);
  });
});

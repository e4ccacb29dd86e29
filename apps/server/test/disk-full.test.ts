// A data disk that fills up, for real: the server's data directory on a small tmpfs (small-disk.ts). An upload that
// fills it answers 507 at once and keeps nothing; a job whose outputs fill it fails with "the data disk is full", its
// partial outputs removed; progress writes refused by a full database disk leave the server running; a restart
// neither runs the failed job again nor loops. The server answers /api/health throughout.
import fs from "node:fs";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, udp } from "../../../packages/core/src/testing/index.js";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, startServer, waitForStatus } from "./server-harness.js";
import { type SmallDisk, smallDisk } from "./small-disk.js";

const MiB = 1024 * 1024;
const DISK_FULL_JOB = /^The data disk is full: the job stopped and its partial outputs were removed\./;

/** One UDP packet per session: a capture of 58 bytes per record whose CSV has a row of at least 100 bytes each. */
function manySessions(count: number): Buffer {
  const parts = [Buffer.from(pcapFile([]))];
  for (let i = 0; i < count; i++) {
    const src = `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`;
    const frame = ethernet(ipv4({ src, dst: "192.168.0.1" }, udp({ srcPort: 1024 + (i % 60000), dstPort: 53 })));
    const packet = capturedPacket(frame, { linkType: 1, tsSec: 1_700_000_000 + Math.floor(i / 1000) });
    // The record alone: pcapFile writes the file header first.
    parts.push(Buffer.from(pcapFile([packet]).subarray(24)));
  }
  return Buffer.concat(parts);
}

/** A multipart upload of `total` bytes that starts with a pcap header, produced chunk by chunk as fetch asks. */
function endlessUpload(total: number) {
  const boundary = "tracemill-test-boundary";
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.pcap"\r\n` +
      "Content-Type: application/octet-stream\r\n\r\n",
  );
  const pcapHeader = Buffer.from(pcapFile([]));
  const chunk = Buffer.alloc(MiB);
  const progress = { sent: 0 };
  let started = false;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(Buffer.concat([head, pcapHeader]));
      } else if (progress.sent < total) {
        progress.sent += chunk.length;
        controller.enqueue(chunk);
      } else {
        controller.enqueue(Buffer.from(`\r\n--${boundary}--\r\n`));
        controller.close();
      }
    },
  });
  return { body, progress, contentType: `multipart/form-data; boundary=${boundary}` };
}

async function healthy(app: ServedApp, client: Client): Promise<void> {
  expect(app.process.exitCode).toBeNull();
  expect((await client.call("GET", "/api/health")).status).toBe(200);
}

describe("a full data disk, with the real engine", () => {
  let disk: SmallDisk;
  let app: ServedApp;
  let client: Client;
  let serverErrors = "";

  const start = async () => {
    app = await startServer({ fake: false, workers: 1, dataDir: disk.dir, launcher: disk.launcher });
    app.process.stderr?.on("data", (chunk: Buffer) => {
      serverErrors += chunk.toString();
    });
  };

  beforeAll(async () => {
    disk = await smallDisk(8 * MiB);
    await start();
    client = new Client(app.url);
    await client.signUp("Full");
  });
  afterAll(async () => {
    await app?.stop();
    await disk?.close();
  });

  it("answers 507 to an upload that fills the disk, before the client has sent it all, and keeps nothing", async () => {
    const free = disk.freeBytes();
    const upload = endlessUpload(20 * free);
    const response = await client.raw("POST", "/api/files", {
      body: upload.body,
      headers: { "Content-Type": upload.contentType },
      duplex: "half",
    });
    expect(response.status).toBe(507);
    expect(await response.json()).toEqual({ messages: ["huge.pcap: the data disk is full; nothing was kept"] });
    // At once: the answer came while most of the upload was still to be sent.
    expect(upload.progress.sent).toBeLessThan(4 * free);
    expect(disk.freeBytes()).toBeGreaterThan(free - MiB);
    expect((await client.call("GET", "/api/files")).body).toEqual([]);
    await healthy(app, client);
  });

  it("fails a job whose outputs fill the disk, removes its partial outputs, and keeps serving", async () => {
    // A capture that takes 60 % of the free space, whose CSV (a row of over 100 bytes per 58-byte record) needs more
    // than the rest.
    const sessions = Math.floor((0.6 * disk.freeBytes()) / 58);
    const uploaded = await client.upload("sessions.pcap", manySessions(sessions));
    expect(uploaded.status).toBe(201);
    const before = disk.freeBytes();
    expect(sessions * 100).toBeGreaterThan(before);
    const created = await client.call("POST", "/api/jobs", {
      title: "too big for the disk",
      capability: "extract",
      params: {},
      inputs: { capture: { fileId: uploaded.body.id } },
    });
    expect(created.status).toBe(201);
    const job = await waitForStatus(client, created.body.id, ["succeeded", "failed"], 60_000);
    expect(job.status).toBe("failed");
    expect(job.error).toMatch(DISK_FULL_JOB);
    expect(job.outputs).toEqual([]);
    expect(fs.existsSync(disk.hostPath("jobs", job.id))).toBe(false);
    // The space the run took is back, but for the database's own growth.
    expect(disk.freeBytes()).toBeGreaterThan(before - MiB);
    await healthy(app, client);
  });

  it("fails a job whose gzip input does not fit once inflated, the same way", async () => {
    const free = disk.freeBytes();
    // One packet over and over: the upload is small, its inflated copy in the job's work directory is not.
    const record = manySessions(1).subarray(24);
    const count = Math.ceil((1.5 * free) / record.length);
    const packed = zlib.gzipSync(Buffer.concat([manySessions(0), ...Array.from({ length: count }, () => record)]));
    expect(packed.length).toBeLessThan(free / 10);
    const uploaded = await client.upload("repeated.pcap.gz", packed);
    expect([uploaded.status, uploaded.body.compression]).toEqual([201, "gzip"]);
    const before = disk.freeBytes();
    const created = await client.call("POST", "/api/jobs", {
      title: "inflates past the disk",
      capability: "extract",
      params: {},
      inputs: { capture: { fileId: uploaded.body.id } },
    });
    const job = await waitForStatus(client, created.body.id, ["succeeded", "failed"], 60_000);
    expect([job.status, job.outputs]).toEqual(["failed", []]);
    expect(job.error).toMatch(DISK_FULL_JOB);
    expect(fs.existsSync(disk.hostPath("jobs", job.id))).toBe(false);
    expect(disk.freeBytes()).toBeGreaterThan(before - MiB);
    await healthy(app, client);
  });

  it("starts again after a crash without running the failed jobs again", async () => {
    const jobs = (await client.call("GET", "/api/jobs")).body.jobs;
    expect(jobs.map((job: { status: string }) => job.status)).toEqual(["failed", "failed"]);
    const [failed] = jobs;
    expect(failed.status).toBe("failed");
    app.process.kill("SIGKILL");
    await new Promise((resolve) => app.process.once("exit", resolve));
    const cookie = client.cookie;
    await start();
    client = new Client(app.url);
    client.cookie = cookie;
    // Longer than two polls of the queue: nothing is claimed, nothing changes.
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const after = (await client.call("GET", `/api/jobs/${failed.id}`)).body;
    expect([after.status, after.startedAt, after.finishedAt, after.error]).toEqual([
      "failed",
      failed.startedAt,
      failed.finishedAt,
      failed.error,
    ]);
    await healthy(app, client);
    expect((await client.upload("small.pcap", manySessions(10))).status).toBe(201);
    expect(serverErrors).not.toMatch(/nobody waiting|internal error/i);
  });
});

describe("a full data disk under a running job's progress writes", () => {
  let disk: SmallDisk;
  let app: ServedApp;
  let client: Client;
  let serverErrors = "";

  beforeAll(async () => {
    disk = await smallDisk(8 * MiB);
    app = await startServer({ workers: 1, dataDir: disk.dir, launcher: disk.launcher });
    app.process.stderr?.on("data", (chunk: Buffer) => {
      serverErrors += chunk.toString();
    });
    client = new Client(app.url);
    await client.signUp("Progress");
  });
  afterAll(async () => {
    await app?.stop();
    await disk?.close();
  });

  it("keeps the server running while the database cannot write, answers 507, and the job ends once space is back", async () => {
    const capture = (await client.upload("small.pcap", manySessions(10))).body.id;
    // The fake engine reports progress every 0.6 s for 6 s.
    const job = (
      await client.call("POST", "/api/jobs", {
        title: "progress on a full disk",
        capability: "extract",
        params: { activeTimeout: 600 },
        inputs: { capture: { fileId: capture } },
      })
    ).body;
    await waitForStatus(client, job.id, ["running"]);
    const filler = disk.fill("filler");
    expect(disk.freeBytes()).toBeLessThan(4096 * 2);
    // Progress writes now fail (SQLite cannot grow its log); the server must outlive several of them.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await healthy(app, client);
    const refused = await client.call("POST", "/api/jobs", {
      title: "no room",
      capability: "extract",
      params: {},
      inputs: { capture: { fileId: capture } },
    });
    expect([refused.status, refused.body]).toEqual([507, { messages: ["The data disk is full"] }]);
    fs.rmSync(filler);
    const done = await waitForStatus(client, job.id, ["succeeded", "failed"], 30_000);
    expect([done.status, done.progress.percent, done.error]).toEqual(["succeeded", 100, null]);
    await healthy(app, client);
    expect(serverErrors).not.toMatch(/nobody waiting|internal error/i);
  });
});

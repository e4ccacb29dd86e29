// A download racing the deletion of its job, against a real server: the client reads the first bytes, the job is
// deleted (its files removed), then the client reads on. The whole file or zip arrives, byte for byte; a download
// asked after the deletion answers 404 before anything is sent.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, udp } from "../../../packages/core/src/testing/index.js";
import { unzipBuffer } from "../../../test/helpers/read-zip.js";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, startServer, waitForStatus } from "./server-harness.js";

/** A capture of random payloads, about 9 MB: more than the socket and stream buffers between server and client. */
function bigCapture(): Buffer {
  const parts = [Buffer.from(pcapFile([]))];
  for (let i = 0; i < 6000; i++) {
    const frame = ethernet(
      ipv4(
        { src: "10.0.0.1", dst: "10.0.0.2" },
        udp({ srcPort: 4000, dstPort: 5000, payload: crypto.randomBytes(1400) }),
      ),
    );
    parts.push(Buffer.from(pcapFile([capturedPacket(frame, { linkType: 1, tsSec: 1_700_000_000 + i })]).subarray(24)));
  }
  return Buffer.concat(parts);
}

let app: ServedApp;
let client: Client;
let capture: Buffer;

beforeAll(async () => {
  app = await startServer({ workers: 1 });
  client = new Client(app.url);
  await client.signUp("Racer");
  capture = bigCapture();
});
afterAll(async () => {
  await app?.stop();
});

/** A job whose outputs include a copy of the capture (its upload goes with it when it is deleted). */
async function finishedJob(): Promise<{ id: string }> {
  const captureId = (await client.upload("big.pcap", capture)).body.id;
  const created = await client.call("POST", "/api/jobs", {
    title: "raced",
    capability: "extract",
    params: { activeTimeout: 5 },
    inputs: { capture: { fileId: captureId } },
  });
  return waitForStatus(client, created.body.id, ["succeeded"]);
}

/** Starts a download, reads its first chunk, deletes the job, then reads the rest. */
async function downloadWhileDeleting(jobId: string, url: string): Promise<{ status: number; body: Buffer }> {
  const response = await client.raw("GET", url);
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const chunks: Uint8Array[] = [];
  const first = await reader.read();
  if (first.value) chunks.push(first.value);
  expect((await client.call("DELETE", `/api/jobs/${jobId}`)).status).toBe(204);
  expect(fs.existsSync(path.join(app.dataDir, "jobs", jobId))).toBe(false);
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return { status: response.status, body: Buffer.concat(chunks) };
}

describe("a download while its job is deleted", () => {
  it("sends the whole output", async () => {
    const job = await finishedJob();
    const { status, body } = await downloadWhileDeleting(job.id, `/api/jobs/${job.id}/outputs/copy.pcap`);
    expect(status).toBe(200);
    expect(body.equals(capture)).toBe(true);
  });

  it("sends the whole zip of the outputs", async () => {
    const job = await finishedJob();
    const { status, body } = await downloadWhileDeleting(job.id, `/api/jobs/${job.id}/outputs.zip`);
    expect(status).toBe(200);
    const entries = await unzipBuffer(body);
    expect(Object.keys(entries)).toEqual(["features.csv", "copy.pcap", "summary.json"]);
    expect(entries["copy.pcap"].equals(capture)).toBe(true);
    // The fake engine's CSV names the SHA-256 and size of its input; its summary the size.
    const sha256 = crypto.createHash("sha256").update(capture).digest("hex");
    expect(entries["features.csv"].toString()).toBe(`input,bytes\n${sha256},${capture.length}\n`);
    expect(JSON.parse(entries["summary.json"].toString()).bytes).toBe(capture.length);
  });

  it("answers 404 before any byte once the job is gone", async () => {
    const job = await finishedJob();
    expect((await client.call("DELETE", `/api/jobs/${job.id}`)).status).toBe(204);
    for (const url of [`/api/jobs/${job.id}/outputs/copy.pcap`, `/api/jobs/${job.id}/outputs.zip`]) {
      const answer = await client.call("GET", url);
      expect([answer.status, answer.body]).toEqual([404, { messages: ["Not found"] }]);
    }
  });
});

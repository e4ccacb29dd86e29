// Downloads of files deleted while they are being sent: a file opened before its deletion is sent whole (the
// descriptor keeps its content), a zip whose entries were all opened before their deletion is whole, and a file
// already gone answers 404 before anything is sent. The test's route deletes between opening and sending.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import Fastify, { type FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { unzipBuffer } from "../../../../test/helpers/read-zip.js";
import { HttpError } from "../services/http-error.js";
import { openDownload, openDownloads, sendFile } from "./send-file.js";
import { sendOpenedZip } from "./send-zip.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-download-race-"));
// Larger than any socket or stream buffer between the two ends, so most of it is read after the deletion.
const big = crypto.randomBytes(8 * 1024 * 1024);
const small = Buffer.from("flow,bytes\n1,2\n");
let app: FastifyInstance;

/** Writes the files afresh (a test deletes them). */
function place(): { big: string; small: string } {
  const files = { big: path.join(dir, "big.bin"), small: path.join(dir, "small.csv") };
  fs.writeFileSync(files.big, big);
  fs.writeFileSync(files.small, small);
  return files;
}

beforeAll(async () => {
  app = Fastify();
  app.setErrorHandler((error, _request, reply) =>
    reply.code(error instanceof HttpError ? error.status : 500).send({ messages: [(error as Error).message] }),
  );
  app.get("/file", async (request, reply) => {
    const files = place();
    const opened = await openDownload(files.big);
    fs.rmSync(files.big);
    return sendFile(request, reply, opened, "big.bin");
  });
  app.get("/zip", async (_request, reply) => {
    const files = place();
    const opened = await openDownloads([
      { name: "small.csv", path: files.small },
      { name: "big.bin", path: files.big },
    ]);
    fs.rmSync(files.small);
    fs.rmSync(files.big);
    return sendOpenedZip(reply, "outputs.zip", opened);
  });
  app.get("/gone", async (request, reply) => sendFile(request, reply, path.join(dir, "never-written"), "x.bin"));
  await app.listen({ port: 0, host: "127.0.0.1" });
});
afterAll(async () => {
  await app?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const url = (route: string) => {
  const address = app.server.address() as { port: number };
  return `http://127.0.0.1:${address.port}${route}`;
};

describe("a download racing a deletion", () => {
  it("sends a file deleted after it was opened whole, with its length", async () => {
    const response = await fetch(url("/file"));
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(big.length));
    expect(Buffer.from(await response.arrayBuffer()).equals(big)).toBe(true);
  });

  it("sends a range of a deleted file", async () => {
    const response = await fetch(url("/file"), { headers: { Range: "bytes=1000-1999" } });
    expect(response.status).toBe(206);
    expect(Buffer.from(await response.arrayBuffer()).equals(big.subarray(1000, 2000))).toBe(true);
  });

  it("sends a zip whose entries were deleted after they were opened whole", async () => {
    const response = await fetch(url("/zip"));
    expect(response.status).toBe(200);
    const entries = await unzipBuffer(Buffer.from(await response.arrayBuffer()));
    expect(Object.keys(entries)).toEqual(["small.csv", "big.bin"]);
    expect(entries["small.csv"].equals(small)).toBe(true);
    expect(entries["big.bin"].equals(big)).toBe(true);
  });

  it("answers 404 before anything is sent for a file already gone", async () => {
    const response = await fetch(url("/gone"));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ messages: ["Not found"] });
  });

  it("opens all of a zip's entries or none: one missing is 404, and the others are closed again", async () => {
    const files = place();
    const before = fs.readdirSync("/proc/self/fd").length;
    await expect(
      openDownloads([
        { name: "small.csv", path: files.small },
        { name: "missing", path: path.join(dir, "missing") },
      ]),
    ).rejects.toMatchObject({ status: 404 });
    expect(fs.readdirSync("/proc/self/fd").length).toBe(before);
  });
});

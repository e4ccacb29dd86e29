// A gzip bomb uploaded to a real server: sniffing it at upload costs the server no more than any upload (so nothing
// stalls its event loop), and a job on it fails with the inflate limit's message instead of writing gigabytes.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, startServer, waitForStatus } from "./server-harness.js";

let app: ServedApp;
let client: Client;
beforeAll(async () => {
  app = await startServer({ fake: false, workers: 1 });
  client = new Client(app.url);
  await client.signUp("Bomber");
});
afterAll(async () => {
  await app?.stop();
});

/**
 * About 2 MB of gzip that inflates to 2 GiB: a pcap of one packet, then 2048 gzip members (gzip allows them one
 * after another) of 1 MiB of zeros each.
 */
/** CPU time (user + system, ms) a process has used: unlike a request's latency, other load on the machine adds none. */
function cpuMs(pid: number): number {
  // Fields after the command name: state is field 3, utime 14 and stime 15, in clock ticks (100 a second).
  const fields = fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

function onePacketPcap(): Buffer {
  const frame = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 40000, dstPort: 80 })));
  return Buffer.from(pcapFile([capturedPacket(frame, { linkType: 1 })]));
}

function gzipBomb(): Buffer {
  const zeros = zlib.gzipSync(Buffer.alloc(1024 * 1024), { level: 9 });
  const head = zlib.gzipSync(onePacketPcap());
  return Buffer.concat([head, ...new Array(2048).fill(zeros)]);
}

describe("a gzip bomb upload", () => {
  it("costs the server no more to sniff than any upload, and its job fails at the inflate limit", async () => {
    const bomb = gzipBomb();
    expect(bomb.length).toBeLessThan(2.5 * 1024 * 1024);
    // The same size of gzip that inflates about 1:1 (random bytes after a pcap header): what any upload costs.
    const plain = zlib.gzipSync(Buffer.concat([onePacketPcap(), crypto.randomBytes(bomb.length)]), { level: 1 });
    const uploadAll = async (name: string, content: Buffer) => {
      const before = cpuMs(app.process.pid as number);
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push(await client.upload(`${name}-${i}.pcap.gz`, content));
      return { answers, cpu: cpuMs(app.process.pid as number) - before };
    };
    await client.upload("warm-up.pcap.gz", plain);
    const baseline = await uploadAll("plain", plain);
    const bombs = await uploadAll("bomb", bomb);
    // Each upload is streamed, hashed and sniffed whole; identical bytes are then kept once (the warm-up's and the
    // first bomb's), the others answered 200 with that upload.
    expect(baseline.answers.map((upload) => upload.status)).toEqual([200, 200, 200, 200, 200]);
    expect(bombs.answers.map((upload) => upload.status)).toEqual([201, 200, 200, 200, 200]);
    for (const upload of [...baseline.answers, ...bombs.answers]) {
      expect(upload.body).toMatchObject({ format: "pcap", compression: "gzip" });
    }
    // Sniffing inflates the first 64 KiB of each, bomb or not; a whole inflate of a bomb's sniffed start (64 MiB or
    // more of zeros, on the event loop) would show here many times over.
    expect(bombs.cpu, `server CPU: ${bombs.cpu} ms for the bombs, ${baseline.cpu} ms for plain gzip`).toBeLessThan(
      baseline.cpu + 150,
    );

    const created = await client.call("POST", "/api/jobs", {
      title: "bomb",
      capability: "extract",
      inputs: { capture: { fileId: bombs.answers[0].body.id } },
    });
    expect(created.status).toBe(201);
    const job = await waitForStatus(client, created.body.id, ["succeeded", "failed"], 120_000);
    expect(job.status).toBe("failed");
    // The engine's limit (packages/engine/src/input/gunzip.ts), naming the upload as the user knows it.
    expect(job.error).toMatch(/^bomb-0\.pcap\.gz: gzip input .*: it inflates more than \d+ times .*\(a gzip bomb/);
    // Nothing of the inflated copy is left behind.
    expect(fs.existsSync(path.join(app.dataDir, "jobs", job.id, "work"))).toBe(false);
  });
});

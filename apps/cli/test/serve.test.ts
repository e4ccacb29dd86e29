// `tracemill serve` on a port it cannot have: one line naming the address and the reason, exit status 1, and no job
// of its data directory started (jobs run only once the server listens).
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Client, fixture } from "../../server/test/server-harness.js";
import { runsOf, workerEngine } from "../../server/test/worker-harness.js";
import { cliPath, repoRoot, type ServedApp, serve } from "./run-cli.js";

describe("tracemill serve on a port in use", () => {
  let blocker: net.Server;
  let port: number;
  let app: ServedApp;
  let dataDir: string;
  let cookie: string;
  let jobId: string;

  beforeAll(async () => {
    blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, "127.0.0.1", resolve));
    port = (blocker.address() as net.AddressInfo).port;
    // A data directory with a job waiting in its queue (the server that queued it runs no jobs).
    app = await serve(["--workers", "0"]);
    dataDir = app.dataDir;
    const client = new Client(app.url);
    await client.signUp("Busy");
    const capture = (await client.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"))).body.id;
    const created = await client.call("POST", "/api/jobs", {
      title: "waits",
      capability: "extract",
      params: { activeTimeout: 5 },
      inputs: { capture: { fileId: capture } },
    });
    expect(created.status).toBe(201);
    jobId = created.body.id;
    cookie = client.cookie;
    await app.stop();
  });
  afterAll(async () => {
    await app?.stop();
    await new Promise((resolve) => blocker?.close(resolve));
  });

  it("exits with status 1 and one line naming the port, and runs no job", () => {
    const runLog = path.join(dataDir, "runs.log");
    const started = Date.now();
    const result = spawnSync(
      process.execPath,
      [cliPath, "serve", "--port", String(port), "--host", "127.0.0.1", "--data", dataDir, "--workers", "1"],
      {
        cwd: repoRoot,
        encoding: "utf8",
        timeout: 30_000,
        env: { ...process.env, TRACEMILL_TEST_ENGINE_MODULE: workerEngine, TRACEMILL_TEST_RUN_LOG: runLog },
      },
    );
    expect(result.error).toBeUndefined();
    expect(result.status).toBe(1);
    expect(result.stdout).toBe("");
    expect(result.stderr).toBe(`tracemill: cannot listen on 127.0.0.1:${port}: the port is already in use\n`);
    // It ended by itself, well before the time limit (a server left running would be killed at 30 s).
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(runsOf(runLog)).toEqual([]);
    expect(fs.existsSync(path.join(dataDir, "jobs", jobId))).toBe(false);
  });

  it("leaves the job queued for the next server that listens", async () => {
    app = await serve(["--data", dataDir, "--workers", "0"]);
    const client = new Client(app.url);
    client.cookie = cookie;
    const job = (await client.call("GET", `/api/jobs/${jobId}`)).body;
    expect([job.status, job.startedAt, job.progress.stage]).toEqual(["queued", null, "queued"]);
  });
});

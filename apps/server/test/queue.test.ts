// The durable queue and worker pool against real servers, on SQLite and on PostgreSQL (a throw-away cluster): jobs in
// parallel up to the worker count, cancelling, a crashing job that leaves the server standing, failure messages, and
// a restart that re-queues a running job.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { usePostgresCluster } from "./postgres-cluster.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

const cluster = usePostgresCluster();

/** The server's environment naming a new database: none for SQLite (the data directory's file), a URL for PostgreSQL. */
const backends: { name: string; database: () => Promise<NodeJS.ProcessEnv> }[] = [
  { name: "SQLite", database: async () => ({}) },
  { name: "PostgreSQL", database: async () => ({ TRACEMILL_DATABASE_URL: await cluster().createDatabase() }) },
];

for (const backend of backends) {
  describe(`on ${backend.name}`, () => {
    let app: ServedApp;
    let client: Client;
    let captureId: string;

    beforeAll(async () => {
      app = await startServer({ workers: 2, env: await backend.database() });
      client = new Client(app.url);
      await client.signUp("Queue");
      captureId = (await client.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"))).body.id;
    });
    afterAll(async () => {
      await app?.stop();
    });

    const job = (params: Record<string, unknown>, capability = "extract") => ({
      title: `job ${JSON.stringify(params)}`,
      capability,
      params,
      inputs: { capture: { fileId: captureId } },
    });

    async function create(client: Client, params: Record<string, unknown>, capability?: string): Promise<string> {
      const answer = await client.call("POST", "/api/jobs", job(params, capability));
      expect(answer.status).toBe(201);
      return answer.body.id;
    }

    describe("worker pool", () => {
      it("runs as many jobs at once as there are workers, the rest wait queued, all finish", async () => {
        const ids = [];
        for (let i = 0; i < 4; i++) ids.push(await create(client, { activeTimeout: 100 }));
        await waitForStatus(client, ids[1], ["running"]);
        const states = await Promise.all(
          ids.map(async (id) => (await client.call("GET", `/api/jobs/${id}`)).body.status),
        );
        expect(states.filter((s) => s === "running")).toHaveLength(2);
        expect(states.slice(2)).toEqual(["queued", "queued"]);
        const done = await Promise.all(ids.map((id) => waitForStatus(client, id, ["succeeded"])));
        // Each ran in a worker process of its own, never in the server.
        const pids = new Set(done.map((j) => j.summary.pid));
        expect(pids.size).toBe(4);
        expect(pids.has(app.process.pid)).toBe(false);
        // The jobs went through the database chosen: the data directory holds a SQLite file only when it was SQLite.
        expect(fs.existsSync(path.join(app.dataDir, "tracemill.sqlite"))).toBe(backend.name === "SQLite");
        // At a lower scheduling priority than the server, which answers its users first.
        const serverNiceness = os.getPriority(app.process.pid);
        expect(done.map((j) => j.summary.niceness)).toEqual(ids.map(() => Math.min(19, serverNiceness + 10)));
      });

      it("cancels a queued job at once and a running one by stopping its worker", async () => {
        const blockers = [await create(client, { activeTimeout: 300 }), await create(client, { activeTimeout: 300 })];
        const queued = await create(client, { activeTimeout: 5 });
        const cancelledQueued = await client.call("POST", `/api/jobs/${queued}/cancel`);
        expect(cancelledQueued.body.status).toBe("cancelled");
        await waitForStatus(client, blockers[0], ["running"]);
        const started = Date.now();
        await client.call("POST", `/api/jobs/${blockers[0]}/cancel`);
        const cancelled = await waitForStatus(client, blockers[0], ["cancelled"]);
        // Stopped by its abort signal, before the 5 s kill would have fired (generous for a loaded machine).
        expect(Date.now() - started).toBeLessThan(4500);
        expect(cancelled.outputs).toEqual([]);
        expect(fs.existsSync(path.join(app.dataDir, "jobs", blockers[0], "out"))).toBe(false);
        const again = await client.call("POST", `/api/jobs/${blockers[0]}/cancel`);
        expect(again.status).toBe(409);
        expect(again.body.messages).toEqual(["The job has already finished"]);
        await client.call("POST", `/api/jobs/${blockers[1]}/cancel`);
        await waitForStatus(client, blockers[1], ["cancelled"]);
      });

      it("deletes a running job: its worker is stopped and its files removed", async () => {
        const id = await create(client, { activeTimeout: 300 });
        await waitForStatus(client, id, ["running"]);
        expect((await client.call("DELETE", `/api/jobs/${id}`)).status).toBe(204);
        expect((await client.call("GET", `/api/jobs/${id}`)).status).toBe(404);
        expect(fs.existsSync(path.join(app.dataDir, "jobs", id))).toBe(false);
        const next = await create(client, { activeTimeout: 5 });
        expect((await waitForStatus(client, next, ["succeeded"])).status).toBe("succeeded");
      });

      it("marks a job whose worker crashes as failed, and the server keeps serving", async () => {
        const id = await create(client, { idleTimeout: 1 });
        const failed = await waitForStatus(client, id, ["failed"]);
        expect(failed.error).toMatch(/^The job stopped unexpectedly \(worker exit code 3\)/);
        expect((await client.call("GET", "/api/health")).status).toBe(200);
        const next = await create(client, { activeTimeout: 5 });
        expect((await waitForStatus(client, next, ["succeeded"])).status).toBe("succeeded");
      });

      it("reports the engine's own message when a capability fails", async () => {
        const id = await create(client, { idleTimeout: 2 });
        const failed = await waitForStatus(client, id, ["failed"]);
        // The engine named the path it read; the user sees the name the file was uploaded as.
        expect(failed.error).toBe("raw101_ipv4.pcap: the capture is damaged at byte 24");
        expect(failed.progress.stage).toBe("failed");
      });
    });

    describe("restart", () => {
      it("queues a job that was running when the server stopped, and runs it to the end after start", async () => {
        const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-restart-"));
        const env = await backend.database();
        const first = await startServer({ dataDir, workers: 1, env });
        const user = new Client(first.url);
        await user.signUp("Restart");
        const upload = (await user.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"))).body.id;
        const created = await user.call("POST", "/api/jobs", {
          ...job({ activeTimeout: 200 }),
          inputs: { capture: { fileId: upload } },
        });
        const waiting = await user.call("POST", "/api/jobs", {
          ...job({ activeTimeout: 5 }),
          inputs: { capture: { fileId: upload } },
        });
        await waitForStatus(user, created.body.id, ["running"]);
        const cookie = user.cookie;
        first.process.kill("SIGKILL");
        await new Promise((resolve) => first.process.once("exit", resolve));

        const second = await startServer({ dataDir, workers: 1, env });
        try {
          const again = new Client(second.url);
          again.cookie = cookie;
          const requeued = await waitForStatus(again, created.body.id, ["queued", "running"]);
          expect(["queued", "running"]).toContain(requeued.status);
          expect((await waitForStatus(again, created.body.id, ["succeeded"])).outputs).toHaveLength(3);
          expect((await waitForStatus(again, waiting.body.id, ["succeeded"])).status).toBe("succeeded");
        } finally {
          await second.stop();
        }
      });

      it("stops promptly on SIGTERM even with a job running and its event stream open", async () => {
        const server = await startServer({ workers: 1, env: await backend.database() });
        const user = new Client(server.url);
        await user.signUp("Stop");
        const upload = (await user.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"))).body.id;
        const created = await user.call("POST", "/api/jobs", {
          ...job({ activeTimeout: 1000 }),
          inputs: { capture: { fileId: upload } },
        });
        await waitForStatus(user, created.body.id, ["running"]);
        const events = await user.raw("GET", `/api/jobs/${created.body.id}/events`);
        expect(events.status).toBe(200);
        const started = Date.now();
        await server.stop();
        expect(Date.now() - started).toBeLessThan(3000);
      });
    });
  });
}

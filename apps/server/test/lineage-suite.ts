// Lineage on every database backend (run by repositories-sqlite and repositories-postgres): a sanitize → merge →
// label chain made through the jobs service as a client would (each job's outputs published as a worker does), what
// each viewer sees of it, and the walk's bounds on chains and cycles written straight into the tables.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import { type Db, openDatabase } from "../src/db/connect.js";
import { progressHub } from "../src/jobs/progress-hub.js";
import { filesRepository } from "../src/repositories/files.js";
import { jobsRepository } from "../src/repositories/jobs.js";
import { lineageRepository } from "../src/repositories/lineage.js";
import { usersRepository } from "../src/repositories/users.js";
import type { CurrentUser } from "../src/services/accounts.js";
import { HttpError } from "../src/services/http-error.js";
import { jobsService } from "../src/services/jobs.js";
import { jobLineage } from "../src/services/lineage.js";
import { fileStore } from "../src/storage/file-store.js";
import { file, job, user } from "./repository-suite.js";

/** A capture of one TCP packet: what every stored file and output of the chain holds (each sniffed as a pcap). */
const capture = Buffer.from(
  pcapFile([
    capturedPacket(ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 1, dstPort: 2 }))), {
      linkType: 1,
      tsSec: 1_700_000_000,
    }),
  ]),
);

const viewer = (id: string): CurrentUser => ({ id, userName: id, email: `${id}@example.org` });

/** The jobs service over a new database and storage directory, with users alice, bob and carol. */
async function world(target: string) {
  const db = await openDatabase(target);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-lineage-"));
  const store = fileStore(dir);
  // Nothing runs the jobs: the test publishes each job's outputs itself, as a worker would.
  const runner = { wake() {}, cancel: async () => {} };
  const service = jobsService(db, store, runner, progressHub(), { rulesetsDir: dir, serverDirs: [dir] });
  const jobs = jobsRepository(db);
  for (const name of ["alice", "bob", "carol"]) await usersRepository(db).insert(user(name, `${name}@example.org`));

  /** An upload of the user's: a stored pcap and its row. */
  async function upload(owner: string, id: string) {
    fs.writeFileSync(store.filePath(id), capture);
    await filesRepository(db).insert({ ...file(id, owner), size: capture.length });
    return { fileId: id };
  }

  /** Runs the oldest queued job to success with these outputs (each a copy of the capture), as a worker would. */
  async function succeed(id: string, outputs: { name: string; kind: string }[]) {
    expect(await jobs.claimNext("test-worker", new Date().toISOString(), "9999-01-01T00:00:00Z")).toBe(id);
    const run = store.startRun(id);
    for (const output of outputs) fs.writeFileSync(path.join(run.outDir, output.name), capture);
    store.publishRun(id, run);
    const rows = outputs.map((o) => ({ job_id: id, ...o, size: capture.length, sha256: null }));
    await jobs.succeed(id, "test-worker", rows, { status: "succeeded", finished_at: new Date().toISOString() });
  }

  async function create(owner: string, body: Record<string, unknown>) {
    return service.create(viewer(owner), { description: "", ...body });
  }

  return {
    db,
    service,
    upload,
    succeed,
    create,
    close: async () => {
      await db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

type World = Awaited<ReturnType<typeof world>>;

/** sanitize → merge → label, each job made through the service from the one before's output. */
async function chain(w: World, owners: { sanitize: string; merge: string; label: string }, publics: string[] = []) {
  const sanitize = await w.create(owners.sanitize, {
    title: "Sanitized",
    capability: "sanitize",
    public: publics.includes("sanitize"),
    inputs: { capture: await w.upload(owners.sanitize, "raw") },
  });
  await w.succeed(sanitize.id, [
    { name: "clean.pcap", kind: "clean-pcap" },
    { name: "attacks.pcap", kind: "attacks-pcap" },
  ]);
  const merge = await w.create(owners.merge, {
    title: "Mixed",
    capability: "merge",
    public: publics.includes("merge"),
    inputs: {
      background: await w.upload(owners.merge, "background"),
      attacks: { jobId: sanitize.id, output: "attacks.pcap" },
    },
  });
  await w.succeed(merge.id, [
    { name: "merged.pcap", kind: "merged-pcap" },
    { name: "provenance.json", kind: "provenance-json" },
  ]);
  const label = await w.create(owners.label, {
    title: "Labelled",
    capability: "label",
    public: publics.includes("label"),
    params: { mode: "binary" },
    inputs: { capture: { jobId: merge.id, output: "merged.pcap" } },
  });
  return { sanitize, merge, label };
}

/** The 404 a job route answers for a job the viewer may not read. */
const notReadable = (promise: Promise<unknown>) =>
  expect(promise).rejects.toSatisfy((error) => error instanceof HttpError && error.status === 404);

export function lineageSuite(name: string, newTarget: () => Promise<string>): void {
  describe(`lineage on ${name}`, () => {
    it("links a sanitize → merge → label chain both ways, and names each input's job", async () => {
      const w = await world(await newTarget());
      try {
        const { sanitize, merge, label } = await chain(w, { sanitize: "alice", merge: "alice", label: "alice" });
        const alice = viewer("alice");
        const node = (j: { id: string; title: string; capability: string }, status: string) => ({
          id: j.id,
          title: j.title,
          capability: j.capability,
          status,
          warning: false,
          isOwner: true,
        });
        const edges = [
          { from: sanitize.id, to: merge.id, output: "attacks.pcap", role: "attacks" },
          { from: merge.id, to: label.id, output: "merged.pcap", role: "capture" },
          // The label job's provenance record, brought in by the server from the same merge.
          { from: merge.id, to: label.id, output: "provenance.json", role: "provenance" },
        ];
        const byLabel = await w.service.lineage(alice, label.id);
        expect(byLabel.nodes).toEqual([node(label, "queued"), node(merge, "succeeded"), node(sanitize, "succeeded")]);
        expect(byLabel.edges).toHaveLength(3);
        expect(byLabel.edges).toEqual(expect.arrayContaining(edges));
        // From the first job: the jobs that used its outputs, two levels down.
        const bySanitize = await w.service.lineage(alice, sanitize.id);
        expect(bySanitize.nodes.map((n) => n.id)).toEqual([sanitize.id, merge.id, label.id]);
        expect(bySanitize.edges).toEqual(expect.arrayContaining(edges));
        expect(bySanitize.edges).toHaveLength(3);

        const inputs = (await w.service.get(alice, label.id)).inputs;
        const mergeFrom = { jobId: merge.id, title: "Mixed", capability: "merge" };
        expect(inputs.map((i) => [i.role, i.from])).toEqual([
          ["capture", { ...mergeFrom, output: "merged.pcap" }],
          ["provenance", { ...mergeFrom, output: "provenance.json" }],
        ]);
        const mergeInputs = (await w.service.get(alice, merge.id)).inputs;
        expect(mergeInputs.find((i) => i.role === "background")?.from).toBeUndefined();
        expect(mergeInputs.find((i) => i.role === "attacks")?.from).toEqual({
          jobId: sanitize.id,
          output: "attacks.pcap",
          title: "Sanitized",
          capability: "sanitize",
        });
      } finally {
        await w.close();
      }
    });

    it("leaves out what the viewer may not read: another user's private ancestor, a private descendant", async () => {
      const w = await world(await newTarget());
      try {
        // Bob's sanitize is public when Alice uses its output, then Bob makes it private.
        const { sanitize, merge, label } = await chain(w, { sanitize: "bob", merge: "alice", label: "alice" }, [
          "sanitize",
          "merge",
        ]);
        await w.service.update(viewer("bob"), sanitize.id, { public: false });

        const byAlice = await w.service.lineage(viewer("alice"), merge.id);
        expect(byAlice.nodes.map((n) => n.id)).toEqual([merge.id, label.id]);
        expect(byAlice.edges.map((e) => e.from)).toEqual([merge.id, merge.id]);
        expect(JSON.stringify(byAlice)).not.toContain(sanitize.id);
        const attacks = (await w.service.get(viewer("alice"), merge.id)).inputs.find((i) => i.role === "attacks");
        expect(attacks?.from).toBeUndefined();
        expect(JSON.stringify(await w.service.get(viewer("alice"), merge.id))).not.toContain(sanitize.id);

        // Bob reads his own sanitize and Alice's public merge, not her private label.
        const byBob = await w.service.lineage(viewer("bob"), merge.id);
        expect(byBob.nodes.map((n) => [n.id, n.isOwner])).toEqual([
          [merge.id, false],
          [sanitize.id, true],
        ]);
        expect(byBob.edges).toEqual([{ from: sanitize.id, to: merge.id, output: "attacks.pcap", role: "attacks" }]);
        expect(JSON.stringify(byBob)).not.toContain(label.id);

        // Carol and a visitor see the public merge alone; the private label does not exist for them.
        for (const someone of [viewer("carol"), null]) {
          expect(await w.service.lineage(someone, merge.id)).toEqual({
            nodes: [expect.objectContaining({ id: merge.id, isOwner: false })],
            edges: [],
          });
          await notReadable(w.service.lineage(someone, label.id));
        }
        await notReadable(w.service.lineage(viewer("alice"), "no-such-job"));
      } finally {
        await w.close();
      }
    });

    it("stops after 20 levels of ancestors and 2 of descendants, and ends on a cycle", async () => {
      const db: Db = await openDatabase(await newTarget());
      try {
        await usersRepository(db).insert(user("alice", "alice@example.org"));
        const jobs = jobsRepository(db);
        const files = filesRepository(db);
        const repositories = { jobs, lineage: lineageRepository(db) };
        /** Job `id`, reading output out.pcap of each job of `sources` (a file brought in per source). */
        async function linked(id: string, sources: string[], minute: number) {
          for (const source of sources) {
            await files.insert({
              ...file(`${id}-from-${source}`, "alice"),
              source_job_id: source,
              source_output: "out.pcap",
            });
          }
          await jobs.insert(
            job(id, "alice", minute),
            sources.map((source, position) => ({ role: "capture", fileId: `${id}-from-${source}`, position })),
          );
        }
        // j0 ← j1 ← … ← j24: each job reads the one before's output.
        await linked("j0", [], 0);
        for (let i = 1; i < 25; i++) await linked(`j${i}`, [`j${i - 1}`], i);
        const last = (await jobs.byId("j24"))!;
        const up = await jobLineage(repositories, last, "alice");
        expect(up.nodes.map((n) => n.id)).toEqual(Array.from({ length: 21 }, (_, k) => `j${24 - k}`));
        expect(up.edges).toHaveLength(20);
        const down = await jobLineage(repositories, (await jobs.byId("j0"))!, "alice");
        expect(down.nodes.map((n) => n.id)).toEqual(["j0", "j1", "j2"]);
        expect(await jobLineage(repositories, last, "alice", { ancestors: 3, descendants: 0 })).toMatchObject({
          nodes: [{ id: "j24" }, { id: "j23" }, { id: "j22" }, { id: "j21" }],
        });

        // A cycle no service can make (each job reads the other's output), written by hand: the walk still ends.
        await linked("a", [], 30);
        await linked("b", ["a"], 31);
        await files.insert({ ...file("a-from-b", "alice"), source_job_id: "b", source_output: "out.pcap" });
        await db
          .insertInto("job_inputs")
          .values({ job_id: "a", role: "capture", file_id: "a-from-b", position: 0 })
          .execute();
        const cycle = await jobLineage(repositories, (await jobs.byId("a"))!, "alice");
        expect(cycle.nodes.map((n) => n.id)).toEqual(["a", "b"]);
        expect(cycle.edges).toEqual([
          { from: "b", to: "a", output: "out.pcap", role: "capture" },
          { from: "a", to: "b", output: "out.pcap", role: "capture" },
        ]);
      } finally {
        await db.destroy();
      }
    });
  });
}

// Uploads on every database backend (run by repositories-sqlite and repositories-postgres): identical bytes kept once
// per user, the look-up by digest answering the user's own uploads only, the listing with each upload's jobs, and
// deleting an upload only while no job reads it. The service runs over a real database and storage directory; the
// digests the tests expect are node:crypto's, not the service's.
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, udp } from "../../../packages/core/src/testing/index.js";
import { openDatabase } from "../src/db/connect.js";
import { filesRepository } from "../src/repositories/files.js";
import { jobsRepository } from "../src/repositories/jobs.js";
import { usersRepository } from "../src/repositories/users.js";
import type { CurrentUser } from "../src/services/accounts.js";
import { HttpError } from "../src/services/http-error.js";
import { uploadsService } from "../src/services/uploads.js";
import { fileStore } from "../src/storage/file-store.js";
import { at, job, user } from "./repository-suite.js";

/** A one-packet pcap whose bytes differ by its source port: each port is other content. */
const capture = (port: number) =>
  Buffer.from(
    pcapFile([
      capturedPacket(ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, udp({ srcPort: port, dstPort: 53 }))), {
        linkType: 1,
      }),
    ]),
  );
const sha256 = (bytes: Buffer) => crypto.createHash("sha256").update(bytes).digest("hex");
const viewer = (id: string): CurrentUser => ({ id, userName: id, email: `${id}@example.org` });
const alice = viewer("alice");
const bob = viewer("bob");

async function world(target: string) {
  const db = await openDatabase(target);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-uploads-"));
  const uploads = uploadsService(db, fileStore(dir), { maxUploadBytes: 1_000_000 });
  for (const u of [alice, bob]) await usersRepository(db).insert(user(u.id, u.email));
  const send = (who: CurrentUser | null, name: string, bytes: Buffer) =>
    uploads.upload(who, async () => ({ name, stream: Readable.from([bytes]), truncated: () => false }));
  const stored = () => fs.readdirSync(path.join(dir, "files")).sort();
  return { db, dir, uploads, send, stored };
}

/** The HTTP status and messages a call fails with. */
async function failure(call: Promise<unknown>) {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  if (!(error instanceof HttpError)) throw new Error(`expected an HttpError, got ${String(error)}`);
  return { status: error.status, messages: error.messages };
}

export function uploadsSuite(name: string, newTarget: () => Promise<string>): void {
  describe(`uploads on ${name}`, () => {
    it("keeps identical bytes once per user under the first name; another user keeps their own", async () => {
      const { db, send, stored } = await world(await newTarget());
      const bytes = capture(1000);
      const first = await send(alice, "web.pcap", bytes);
      expect(first.created).toBe(true);
      expect(first.file).toMatchObject({ name: "web.pcap", size: bytes.length, sha256: sha256(bytes) });
      const again = await send(alice, "web copy.pcap", bytes);
      expect(again).toEqual({ created: false, file: first.file });
      expect(stored()).toEqual([first.file.id]);
      // Other bytes are another upload.
      const other = await send(alice, "other.pcap", capture(1001));
      expect(other.created).toBe(true);
      // Bob's identical bytes are his own file: nothing of Alice's answers him.
      const bobs = await send(bob, "mine.pcap", bytes);
      expect(bobs.created).toBe(true);
      expect(bobs.file.id).not.toBe(first.file.id);
      expect(bobs.file.name).toBe("mine.pcap");
      expect(stored()).toEqual([first.file.id, other.file.id, bobs.file.id].sort());
      await db.destroy();
    });

    it("never reuses a library's file or an earlier job's output brought in, which are no uploads", async () => {
      const { db, uploads, send } = await world(await newTarget());
      const bytes = capture(2000);
      const files = filesRepository(db);
      const row = { owner_id: alice.id, size: bytes.length, sha256: sha256(bytes), format: "pcap", created_at: at(1) };
      await files.insert({ ...row, id: "lib", name: "lab.pcap", library: "lab", library_path: "lab.pcap" });
      await files.insert({ ...row, id: "out", name: "clean.pcap", source_job_id: "j0", source_output: "clean.pcap" });
      expect(await uploads.lookup(alice, { files: [{ sha256: row.sha256, size: row.size }] })).toEqual({
        files: [null],
      });
      const sent = await send(alice, "web.pcap", bytes);
      expect(sent.created).toBe(true);
      expect((await uploads.list(alice)).map((f) => f.id)).toEqual([sent.file.id]);
      expect((await failure(uploads.remove(alice, "lib"))).status).toBe(404);
      expect((await failure(uploads.remove(alice, "out"))).status).toBe(404);
      await db.destroy();
    });

    it("looks digests up among the user's own uploads only, in the order asked", async () => {
      const { db, uploads, send } = await world(await newTarget());
      const shared = capture(3000);
      const bobsOnly = capture(3001);
      const aliceFile = (await send(alice, "a.pcap", shared)).file;
      const bobFile = (await send(bob, "b.pcap", shared)).file;
      await send(bob, "c.pcap", bobsOnly);
      const digest = (bytes: Buffer, size = bytes.length) => ({ sha256: sha256(bytes), size });
      expect(
        await uploads.lookup(alice, {
          files: [
            digest(shared),
            digest(bobsOnly),
            digest(shared, shared.length + 1),
            { sha256: sha256(shared).toUpperCase(), size: shared.length },
          ],
        }),
      ).toEqual({ files: [aliceFile, null, null, aliceFile] });
      expect(await uploads.lookup(bob, { files: [digest(shared)] })).toEqual({ files: [bobFile] });
      expect(await failure(uploads.lookup(alice, { files: [{ sha256: "xyz", size: 1 }] }))).toEqual({
        status: 400,
        messages: ["Invalid files.0.sha256: a SHA-256 as 64 hex digits"],
      });
      expect((await failure(uploads.lookup(alice, { files: [] }))).status).toBe(400);
      expect((await failure(uploads.lookup(null, { files: [digest(shared)] }))).status).toBe(401);
      await db.destroy();
    });

    it("lists uploads with the jobs that read them, and deletes one only while no job does, bytes and all", async () => {
      const { db, dir, uploads, send, stored } = await world(await newTarget());
      const used = (await send(alice, "used.pcap", capture(4000))).file;
      const byParts = (await send(alice, "parts.pcap", capture(4001))).file;
      const unused = (await send(alice, "unused.pcap", capture(4002))).file;
      const jobs = jobsRepository(db);
      await jobs.insert(job("j1", alice.id, 1, { title: "First" }), [{ role: "capture", fileId: used.id }]);
      await jobs.insert(job("j2", alice.id, 2, { title: "Second" }), [{ role: "attacks", fileId: used.id }]);
      // A job over several captures: its parts read the same files as the job, and are never listed themselves.
      await jobs.insert(
        job("j3", alice.id, 3, { title: "Week", part_count: 2 }),
        [
          { role: "capture", fileId: byParts.id, position: 0 },
          { role: "capture", fileId: unused.id, position: 1 },
        ],
        [0, 1].map((index) => ({
          job: job(`j3-${index}`, alice.id, 3, { parent_id: "j3", part_index: index }),
          inputs: [{ role: "capture", fileId: index === 0 ? byParts.id : unused.id }],
        })),
      );
      await jobs.remove("j3");
      await jobs.insert(
        job("j4", alice.id, 4, { title: "Week again", part_count: 1 }),
        [{ role: "capture", fileId: byParts.id }],
        [
          {
            job: job("j4-0", alice.id, 4, { parent_id: "j4", part_index: 0 }),
            inputs: [{ role: "capture", fileId: byParts.id }],
          },
        ],
      );
      const listed = await uploads.list(alice);
      const use = Object.fromEntries(listed.map((f) => [f.name, f.usedBy]));
      expect(use).toEqual({
        "used.pcap": [
          { id: "j2", title: "Second" },
          { id: "j1", title: "First" },
        ],
        "parts.pcap": [{ id: "j4", title: "Week again" }],
        "unused.pcap": [],
      });
      expect(await uploads.list(bob)).toEqual([]);

      expect(await failure(uploads.remove(alice, used.id))).toEqual({
        status: 409,
        messages: ["used.pcap is an input of 2 jobs: it can be deleted once no job uses it"],
      });
      expect((await failure(uploads.remove(alice, byParts.id))).status).toBe(409);
      expect(fs.existsSync(path.join(dir, "files", used.id))).toBe(true);
      // Someone else's file, a file that does not exist, or no one signed in: nothing to say about it.
      expect(await failure(uploads.remove(bob, unused.id))).toEqual({ status: 404, messages: ["Not found"] });
      expect((await failure(uploads.remove(alice, "no-such-id"))).status).toBe(404);
      expect((await failure(uploads.remove(null, unused.id))).status).toBe(401);
      expect(stored()).toContain(unused.id);

      await uploads.remove(alice, unused.id);
      expect(stored()).not.toContain(unused.id);
      expect((await uploads.list(alice)).map((f) => f.name).sort()).toEqual(["parts.pcap", "used.pcap"]);
      expect((await failure(uploads.remove(alice, unused.id))).status).toBe(404);
      // Once its jobs are gone, the file may go too.
      await jobs.remove("j1");
      await jobs.remove("j2");
      await uploads.remove(alice, used.id);
      expect(stored()).toEqual([byParts.id]);
      await db.destroy();
    });
  });
}

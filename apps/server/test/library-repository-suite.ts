// The capture libraries' repository on every database backend (run by repositories-sqlite and repositories-postgres):
// the cache row of a file is written for one version (size, modification time) and only that version's facts land in it.
import { describe, expect, it } from "vitest";
import { openDatabase } from "../src/db/connect.js";
import { filesRepository } from "../src/repositories/files.js";
import { jobsRepository } from "../src/repositories/jobs.js";
import { librariesRepository } from "../src/repositories/libraries.js";
import { usersRepository } from "../src/repositories/users.js";
import { at, job } from "./repository-suite.js";

/** A modification time with a fraction of a millisecond, as stat gives it: it must come back exactly. */
const MTIME = 1_700_000_000_123.4568;
const BIG = 50_000_000_000;

const sniffed = (path: string, size: number, mtime: number, minute: number) => ({
  library: "lab",
  path,
  size,
  mtime_ms: mtime,
  format: "pcap",
  compression: null,
  checked_at: at(minute),
});

export function libraryRepositorySuite(name: string, newTarget: () => Promise<string>): void {
  const open = async () => openDatabase(await newTarget());

  describe(`capture libraries on ${name}`, () => {
    it("adds, lists by name and removes libraries, their cache with them", async () => {
      const db = await open();
      const libraries = librariesRepository(db);
      await libraries.insert({ name: "zeta", dir: "/srv/zeta", created_at: at(1) });
      await libraries.insert({ name: "lab", dir: "/srv/lab", created_at: at(2) });
      await expect(libraries.insert({ name: "lab", dir: "/elsewhere", created_at: at(3) })).rejects.toThrow();
      expect((await libraries.list()).map((l) => l.name)).toEqual(["lab", "zeta"]);
      expect(await libraries.byName("lab")).toEqual({ name: "lab", dir: "/srv/lab", created_at: at(2) });
      await libraries.putSniffed(sniffed("a.pcap", 10, MTIME, 4));
      expect(await libraries.remove("lab")).toBe(true);
      expect(await libraries.remove("lab")).toBe(false);
      expect(await libraries.byName("lab")).toBeUndefined();
      expect(await libraries.entry("lab", "a.pcap")).toBeUndefined();
      await db.destroy();
    });

    it("keeps a version's size beyond 32 bits and its fractional modification time exactly", async () => {
      const db = await open();
      const libraries = librariesRepository(db);
      await libraries.insert({ name: "lab", dir: "/srv/lab", created_at: at(1) });
      await libraries.putSniffed(sniffed("day1/big.pcap", BIG, MTIME, 2));
      const row = await libraries.entry("lab", "day1/big.pcap");
      expect(row).toMatchObject({ sha256: null, info: null, format: "pcap", checked_at: at(2) });
      expect(Number(row?.size)).toBe(BIG);
      expect(row?.mtime_ms).toBe(MTIME);
      expect((await libraries.entries("lab", ["day1/big.pcap", "nothing"])).map((r) => r.path)).toEqual([
        "day1/big.pcap",
      ]);
      expect(await libraries.entries("lab", [])).toEqual([]);
      // More paths than one statement takes (the databases bound their parameters): every row is found.
      const paths = Array.from({ length: 1200 }, (_, i) => `many/${i}.pcap`);
      for (const [i, p] of paths.entries()) if (i % 100 === 7) await libraries.putSniffed(sniffed(p, i, MTIME, 3));
      const found = await libraries.entries("lab", ["day1/big.pcap", ...paths]);
      expect(found.map((r) => r.path).sort()).toEqual(
        ["day1/big.pcap", ...paths.filter((_, i) => i % 100 === 7)].sort(),
      );
      await db.destroy();
    });

    it("records a hash and info for the version they were taken of only", async () => {
      const db = await open();
      const libraries = librariesRepository(db);
      await libraries.insert({ name: "lab", dir: "/srv/lab", created_at: at(1) });
      await libraries.putSniffed(sniffed("a.pcap", 100, MTIME, 2));
      const version = { size: 100, mtimeMs: MTIME };
      // Another version (the file changed since it was read): nothing lands.
      expect(await libraries.putSha256("lab", "a.pcap", { size: 101, mtimeMs: MTIME }, "1".repeat(64), at(3))).toBe(
        false,
      );
      expect(await libraries.putInfo("lab", "a.pcap", { size: 100, mtimeMs: MTIME + 1 }, "{}", null, at(3))).toBe(
        false,
      );
      expect(await libraries.entry("lab", "a.pcap")).toMatchObject({ sha256: null, info: null, checked_at: at(2) });
      expect(await libraries.putSha256("lab", "a.pcap", version, "2".repeat(64), at(4))).toBe(true);
      // Info without a hash keeps the one recorded; with one, takes it.
      expect(await libraries.putInfo("lab", "a.pcap", version, '{"packets":3}', null, at(5))).toBe(true);
      expect(await libraries.entry("lab", "a.pcap")).toMatchObject({
        sha256: "2".repeat(64),
        info: '{"packets":3}',
        checked_at: at(5),
      });
      expect(await libraries.putInfo("lab", "a.pcap", version, '{"packets":4}', "3".repeat(64), at(6))).toBe(true);
      expect(await libraries.entry("lab", "a.pcap")).toMatchObject({ sha256: "3".repeat(64), info: '{"packets":4}' });
      // A new version sniffed replaces the row: its hash and info are of the old version, so they go.
      await libraries.putSniffed({ ...sniffed("a.pcap", 200, MTIME, 7), format: "pcapng", compression: "gzip" });
      expect(await libraries.entry("lab", "a.pcap")).toMatchObject({
        size: 200,
        format: "pcapng",
        compression: "gzip",
        sha256: null,
        info: null,
        checked_at: at(7),
      });
      await db.destroy();
    });

    it("keeps a file row's library and path, given to a job's inputs, and none for a stored file", async () => {
      const db = await open();
      await usersRepository(db).insert({
        id: "u1",
        user_name: "u1",
        email: "u1@example.org",
        email_key: "u1@example.org",
        password_hash: "x",
        created_at: at(0),
      });
      const files = filesRepository(db);
      const file = {
        owner_id: "u1",
        size: BIG,
        sha256: "0".repeat(64),
        format: "pcap",
        compression: null,
        created_at: at(1),
      };
      await files.insert({ ...file, id: "f-lib", name: "big.pcap", library: "lab", library_path: "day1/big.pcap" });
      await files.insert({ ...file, id: "f-up", name: "up.pcap" });
      expect(await files.byId("f-lib")).toMatchObject({ library: "lab", library_path: "day1/big.pcap" });
      expect(await files.byId("f-up")).toMatchObject({ library: null, library_path: null });
      const jobs = jobsRepository(db);
      await jobs.insert(job("j1", "u1", 2, { capability: "merge" }), [
        { role: "background", fileId: "f-lib" },
        { role: "attacks", fileId: "f-up" },
      ]);
      const inputs = await jobs.inputsOf(["j1"]);
      expect(inputs.find((i) => i.role === "background")).toMatchObject({
        library: "lab",
        library_path: "day1/big.pcap",
      });
      expect(inputs.find((i) => i.role === "attacks")).toMatchObject({ library: null, library_path: null });
      await db.destroy();
    });
  });
}

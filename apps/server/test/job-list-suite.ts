// The job lists' search, filters, sorts and pages in SQL, on every database backend (run by repositories-sqlite and
// repositories-postgres), and the migration that gives jobs finished before it their list columns. Every expected
// order below is worked out by hand from the rows' table, not by the code under test.

import { capabilitiesMatching } from "@tracemill/contracts";
import SqliteDatabase from "better-sqlite3";
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { type Db, openDatabase } from "../src/db/connect.js";
import { isPostgresUrl } from "../src/db/dialect.js";
import { migrations } from "../src/db/migrations.js";
import { filesRepository } from "../src/repositories/files.js";
import { type JobListFilter, type JobListScope, jobListRepository } from "../src/repositories/job-list.js";
import { jobsRepository } from "../src/repositories/jobs.js";
import { usersRepository } from "../src/repositories/users.js";
import { at, file, job, user } from "./repository-suite.js";

/** An ISO time `seconds` after the given minute of the suite's day. */
const time = (minute: number, seconds: number) => new Date(Date.parse(at(minute)) + seconds * 1000).toISOString();

/**
 * Alice's jobs a–g (created at minutes 1–7), a part of a (never listed), Bob's public x and private y.
 *
 * | id | title            | capability | outcome   | sessions | bytes     | runtime | public | inputs              |
 * | a  | Alpha extraction | extract    | succeeded | 300      | 5 000     | 90 s    |        | web.pcap            |
 * | b  | beta labels      | label      | warning   | 40       | 70 000    | 5 s     | yes    | web.pcap, DNS_…     |
 * | c  | Gamma sanitize   | sanitize   | failed    |          |           | 12 s    |        | DNS_capture.pcapng  |
 * | d  | delta merge      | merge      | succeeded |          | 9 000 000 | 600 s   | yes    | 50%_off.pcap        |
 * | e  | Epsilon images   | images     | running   |          |           |         |        | web.pcap            |
 * | f  | Zeta ipt         | ipt        | queued    |          |           |         |        | DNS_capture.pcapng  |
 * | g  | eta extract      | extract    | cancelled |          |           | 3 s     |        | web.pcap            |
 */
async function seed(db: Db): Promise<void> {
  const users = usersRepository(db);
  await users.insert(user("alice", "alice@example.org"));
  await users.insert(user("bob", "bob@example.org"));
  const files = filesRepository(db);
  const named = (id: string, owner: string, name: string) => ({ ...file(id, owner), name });
  await files.insert(named("web", "alice", "web.pcap"));
  await files.insert(named("dns", "alice", "DNS_capture.pcapng"));
  await files.insert(named("sale", "alice", "50%_off.pcap"));
  await files.insert(named("bobs", "bob", "bob.pcap"));
  const jobs = jobsRepository(db);
  const ran = (minute: number, seconds: number) => ({
    started_at: time(minute, 1),
    finished_at: time(minute, 1 + seconds),
  });
  const inputs = (...ids: string[]) => ids.map((fileId, position) => ({ role: "capture", fileId, position }));
  const rows: [ReturnType<typeof job>, string[]][] = [
    [
      job("a", "alice", 1, {
        title: "Alpha extraction",
        status: "succeeded",
        sessions: 300,
        output_bytes: 5000,
        ...ran(1, 90),
      }),
      ["web"],
    ],
    [
      job("b", "alice", 2, {
        title: "beta labels",
        capability: "label",
        status: "succeeded",
        warning_count: 2,
        sessions: 40,
        output_bytes: 70_000,
        public: 1,
        ...ran(2, 5),
      }),
      ["web", "dns"],
    ],
    [
      job("c", "alice", 3, { title: "Gamma sanitize", capability: "sanitize", status: "failed", ...ran(3, 12) }),
      ["dns"],
    ],
    [
      job("d", "alice", 4, {
        title: "delta merge",
        capability: "merge",
        status: "succeeded",
        output_bytes: 9_000_000,
        public: 1,
        ...ran(4, 600),
      }),
      ["sale"],
    ],
    [
      job("e", "alice", 5, {
        title: "Epsilon images",
        capability: "images",
        status: "running",
        started_at: time(5, 1),
      }),
      ["web"],
    ],
    [job("f", "alice", 6, { title: "Zeta ipt", capability: "ipt" }), ["dns"]],
    [job("g", "alice", 7, { title: "eta extract", status: "cancelled", ...ran(7, 3) }), ["web"]],
    [
      job("p", "alice", 8, { title: "Alpha extraction (capture 1 of 1)", public: 1, parent_id: "a", part_index: 0 }),
      ["web"],
    ],
    [job("x", "bob", 8, { title: "Bob public", status: "succeeded", sessions: 10, public: 1, ...ran(8, 1) }), ["bobs"]],
    [job("y", "bob", 9, { title: "Bob private", status: "succeeded", ...ran(9, 1) }), ["bobs"]],
  ];
  for (const [row, ids] of rows) await jobs.insert(row, inputs(...ids));
}

const mine: JobListScope = { ownerId: "alice" };
const everyone: JobListScope = { publicOnly: true };
const newestFirst: JobListFilter = { sort: "created", order: "desc", limit: 50, offset: 0 };

export function jobListSuite(name: string, newTarget: () => Promise<string>): void {
  describe(`job lists on ${name}`, () => {
    it("sorts by every key both ways, empty values last, ties newest first", async () => {
      const db = await openDatabase(await newTarget());
      await seed(db);
      const list = jobListRepository(db);
      const ids = async (filter: Partial<JobListFilter>, scope = mine) =>
        (await list.page(scope, { ...newestFirst, ...filter })).rows.map((row) => row.id).join("");
      const expected: Record<JobListFilter["sort"], [string, string]> = {
        created: ["abcdefg", "gfedcba"],
        title: ["abdegcf", "fcgedba"],
        // By the capabilities' names: Automated (b), Controlled (d), Feature (g, a), Grayscale (e), Time (f), Traffic (c).
        capability: ["bdgaefc", "cfegadb"],
        // queued, running, succeeded (d, a), warning, failed, cancelled
        status: ["fedabcg", "gcbdaef"],
        sessions: ["bagfedc", "abgfedc"],
        size: ["abdgfec", "dbagfec"],
        runtime: ["gbcadfe", "dacbgfe"],
      };
      for (const [sort, [ascending, descending]] of Object.entries(expected)) {
        expect([sort, await ids({ sort: sort as JobListFilter["sort"], order: "asc" })]).toEqual([sort, ascending]);
        expect([sort, await ids({ sort: sort as JobListFilter["sort"], order: "desc" })]).toEqual([sort, descending]);
      }
      await db.destroy();
    });

    it("filters by capability and by outcome, a suspect success apart from a clean one", async () => {
      const db = await openDatabase(await newTarget());
      await seed(db);
      const list = jobListRepository(db);
      const ids = async (filter: Partial<JobListFilter>) =>
        (await list.page(mine, { ...newestFirst, ...filter })).rows.map((row) => row.id).join("");
      expect(await ids({ capability: "extract" })).toBe("ga");
      expect(await ids({ status: "succeeded" })).toBe("da");
      expect(await ids({ status: "warning" })).toBe("b");
      expect(await ids({ status: "failed" })).toBe("c");
      expect(await ids({ status: "running" })).toBe("e");
      expect(await ids({ status: "queued" })).toBe("f");
      expect(await ids({ status: "cancelled" })).toBe("g");
      expect(await ids({ capability: "extract", status: "cancelled" })).toBe("g");
      expect(await ids({ capability: "merge", status: "failed" })).toBe("");
      await db.destroy();
    });

    it("searches titles, input names and capability names case aside, LIKE's wildcards taken literally", async () => {
      const db = await openDatabase(await newTarget());
      await seed(db);
      const list = jobListRepository(db);
      const found = async (text: string, filter: Partial<JobListFilter> = {}, scope = mine) => {
        const search = { text, capabilities: capabilitiesMatching(text) };
        const page = await list.page(scope, { ...newestFirst, ...filter, search });
        return `${page.rows.map((row) => row.id).join("")}/${page.total}`;
      };
      expect(await found("ALPHA")).toBe("a/1");
      expect(await found("gAmMa")).toBe("c/1");
      expect(await found("dns")).toBe("fcb/3");
      expect(await found("web.pcap")).toBe("geba/4");
      expect(await found("%")).toBe("d/1");
      expect(await found("_")).toBe("fdcb/4");
      expect(await found("labeling")).toBe("b/1");
      expect(await found("traffic")).toBe("dcb/3");
      expect(await found("web", { status: "succeeded" })).toBe("a/1");
      expect(await found("nothing like it")).toBe("/0");
      expect(await found("bob", {}, everyone)).toBe("x/1");
      await db.destroy();
    });

    it("pages with a total that does not change, pages that never overlap, and only what the scope may see", async () => {
      const db = await openDatabase(await newTarget());
      await seed(db);
      const list = jobListRepository(db);
      const page = async (offset: number, scope = mine) => {
        const answer = await list.page(scope, { ...newestFirst, limit: 3, offset });
        return `${answer.rows.map((row) => row.id).join("")}/${answer.total}`;
      };
      expect([await page(0), await page(3), await page(6), await page(9)]).toEqual(["gfe/7", "dcb/7", "a/7", "/7"]);
      // Public: Bob's public job and Alice's two, never a private job or a part.
      expect(await page(0, everyone)).toBe("xdb/3");
      const bobs = await list.page({ ownerId: "bob" }, newestFirst);
      expect(bobs.rows.map((row) => [row.id, row.owner_name])).toEqual([
        ["y", "bob"],
        ["x", "bob"],
      ]);
      await db.destroy();
    });

    it("gives jobs that succeeded before the list columns existed their sessions, bytes and warnings", async () => {
      const target = await newTarget();
      const early = rawDatabase(target);
      const migrator = new Migrator({ db: early, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo("0007-libraries")).error).toBeUndefined();
      await sql`insert into users (id, user_name, email, email_key, password_hash, created_at)
        values ('u', 'u', 'u@x.org', 'u@x.org', 'x', ${at(0)})`.execute(early);
      const summaries: Record<string, unknown> = {
        extracted: { sessions: { total: 1234 }, packets: { read: 9000, decoded: 9000 } },
        sanitized: { sessions: { clean: 70, attacks: 5 } },
        // Every session under one label: a single class.
        labelled: {
          sessions: { total: 8 },
          packets: { decoded: 20 },
          labels: { method: "tuples", sessions: { "0": 8 } },
        },
        merged: { inputs: { background: { packets: 10 }, attacks: { packets: 0, file: "a.pcap" } } },
        unreadable: "{not json",
      };
      for (const [id, summary] of Object.entries(summaries)) {
        const text = typeof summary === "string" ? summary : JSON.stringify(summary);
        await sql`insert into jobs (id, owner_id, title, description, public, capability, params, status, percent,
          stage, summary, cancel_requested, attempts, created_at)
          values (${id}, 'u', ${id}, '', 0, 'extract', '{}', 'succeeded', 100, 'done', ${text}, 0, 0, ${at(1)})`.execute(
          early,
        );
      }
      await sql`insert into jobs (id, owner_id, title, description, public, capability, params, status, percent,
        stage, cancel_requested, attempts, created_at)
        values ('waiting', 'u', 'waiting', '', 0, 'extract', '{}', 'queued', 0, 'queued', 0, 0, ${at(1)})`.execute(
        early,
      );
      for (const [name, size] of [
        ["a.csv", 6_000_000_000],
        ["b.json", 34],
      ] as const) {
        await sql`insert into job_outputs (job_id, name, kind, size, position)
          values ('extracted', ${name}, 'x', ${size}, 0)`.execute(early);
      }
      await early.destroy();
      const db = await openDatabase(target);
      const columns = await db
        .selectFrom("jobs")
        .select(["id", "sessions", "output_bytes", "warning_count"])
        .orderBy("id")
        .execute();
      expect(columns.map((c) => [c.id, c.sessions, c.output_bytes, c.warning_count])).toEqual([
        ["extracted", 1234, 6_000_000_034, 0],
        ["labelled", 8, 0, 1],
        ["merged", null, 0, 1],
        ["sanitized", 75, 0, 0],
        ["unreadable", null, 0, 0],
        ["waiting", null, null, 0],
      ]);
      await db.destroy();
    });
  });
}

/** The database without any migration applied, for migrating it step by step. */
function rawDatabase(target: string): Kysely<unknown> {
  return isPostgresUrl(target)
    ? new Kysely({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: target }) }) })
    : new Kysely({ dialect: new SqliteDialect({ database: new SqliteDatabase(target) }) });
}

// Runs the repository suite on PostgreSQL (a throw-away cluster, a new database per case), and checks how PostgreSQL
// is chosen and how a database that cannot be used is reported.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../src/config.js";
import { DatabaseError, openDatabase } from "../src/db/connect.js";
import { jobListSuite } from "./job-list-suite.js";
import { libraryRepositorySuite } from "./library-repository-suite.js";
import { lineageSuite } from "./lineage-suite.js";
import { usePostgresCluster } from "./postgres-cluster.js";
import { repositorySuite } from "./repository-suite.js";
import { uploadsSuite } from "./uploads-suite.js";

const cluster = usePostgresCluster();

repositorySuite("PostgreSQL", () => cluster().createDatabase());
libraryRepositorySuite("PostgreSQL", () => cluster().createDatabase());
jobListSuite("PostgreSQL", () => cluster().createDatabase());
lineageSuite("PostgreSQL", () => cluster().createDatabase());
uploadsSuite("PostgreSQL", () => cluster().createDatabase());

describe("choosing PostgreSQL", () => {
  it("takes --database over TRACEMILL_DATABASE_URL over the SQLite file, and a non-URL as a SQLite file", () => {
    const url = "postgres://lab@db.example/tracemill";
    const env = { TRACEMILL_DATA_DIR: "/srv/data", TRACEMILL_DATABASE_URL: url };
    expect(loadConfig({}, env).database).toBe(url);
    expect(loadConfig({ database: "postgresql://other/db" }, env).database).toBe("postgresql://other/db");
    expect(loadConfig({ database: "here.sqlite" }, env).database).toBe(path.resolve("here.sqlite"));
    expect(loadConfig({}, { TRACEMILL_DATA_DIR: "/srv/data" }).database).toBe("/srv/data/tracemill.sqlite");
  });

  it("refuses a database it cannot reach in one line naming the URL without its password", async () => {
    const socketDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-no-pg-"));
    const url = `postgres://lab:secret@localhost/tracemill?host=${encodeURIComponent(socketDir)}`;
    const failure = await openDatabase(url).then(
      () => null,
      (error: unknown) => error as Error,
    );
    expect(failure).toBeInstanceOf(DatabaseError);
    expect(failure?.message).toMatch(
      /^cannot use the database postgres:\/\/lab:\*\*\*@localhost\/tracemill\?host=.*: /,
    );
    expect(failure?.message).toContain("ENOENT");
    expect(failure?.message).not.toContain("secret");
    expect(failure?.message).not.toContain("\n");
  });
});

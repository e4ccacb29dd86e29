// What counts as a full disk: real errors of a full device (/dev/full), of SQLite out of pages, and the engine's
// OUTPUT_FAILED wrapping the first; other failures do not.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { TracemillError } from "@tracemill/core/errors";
import SqliteDatabase from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { isDiskFull } from "./disk-full.js";

/** The error a call throws (the test fails if it throws none). */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  throw new Error("expected the call to fail");
}

describe("isDiskFull", () => {
  const full = thrownBy(() => fs.writeFileSync("/dev/full", "x"));

  it("knows a write to a full device (ENOSPC) and the engine's OUTPUT_FAILED caused by one", () => {
    expect((full as NodeJS.ErrnoException).code).toBe("ENOSPC");
    expect(isDiskFull(full)).toBe(true);
    const engine = new TracemillError("OUTPUT_FAILED", "features.csv: could not be written (ENOSPC)", {
      file: "features.csv",
      cause: full,
    });
    expect(isDiskFull(engine)).toBe(true);
    expect(isDiskFull(new Error("could not store", { cause: full }))).toBe(true);
  });

  it("knows SQLite's SQLITE_FULL", () => {
    const db = new SqliteDatabase(path.join(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-full-")), "t.sqlite"));
    db.exec("CREATE TABLE t (x BLOB)");
    // A database allowed no more pages than it has is full for SQLite.
    db.pragma(`max_page_count = ${db.pragma("page_count", { simple: true })}`);
    const error = thrownBy(() => db.prepare("INSERT INTO t VALUES (?)").run(Buffer.alloc(100_000)));
    expect((error as { code?: string }).code).toBe("SQLITE_FULL");
    expect(isDiskFull(error)).toBe(true);
    db.close();
  });

  it("knows an exhausted quota (EDQUOT) by its code", () => {
    expect(isDiskFull(Object.assign(new Error("quota"), { code: "EDQUOT" }))).toBe(true);
  });

  it("does not take other failures for a full disk", () => {
    const missing = thrownBy(() => fs.readFileSync("/nonexistent/tracemill"));
    expect(isDiskFull(missing)).toBe(false);
    expect(isDiskFull(new TracemillError("OUTPUT_FAILED", "no permission", { cause: missing }))).toBe(false);
    expect(isDiskFull(new Error("ENOSPC in a message is not a code"))).toBe(false);
    expect(isDiskFull(null)).toBe(false);
    expect(isDiskFull("SQLITE_FULL")).toBe(false);
  });
});

// The command's error edge: Node file system and zlib errors that escaped the engine become one line naming the file
// and the reason; only other errors (bugs) are internal errors, with the stack under --debug.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import { TracemillError } from "@tracemill/core/errors";
import { afterAll, describe, expect, it, vi } from "vitest";
import { reportError, systemErrorMessage } from "../src/report-error.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-report-error-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The error `run` throws. */
function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("nothing thrown");
}

/** What reportError writes for `error`. */
function reported(error: unknown, debug = false): string {
  const write = vi.spyOn(process.stderr, "write").mockImplementation(() => true);
  try {
    reportError(error, debug);
    return write.mock.calls.map((call) => String(call[0])).join("");
  } finally {
    write.mockRestore();
  }
}

describe("systemErrorMessage", () => {
  const file = path.join(dir, "alerts.json");
  fs.writeFileSync(file, "{}\n");

  it("names the path and the reason of a system error", () => {
    const missing = path.join(dir, "missing.json");
    expect(systemErrorMessage(thrown(() => fs.openSync(missing, "r")))).toBe(
      `${missing}: ENOENT: no such file or directory`,
    );
    expect(systemErrorMessage(thrown(() => fs.openSync(`${file}/x`, "r")))).toBe(`${file}/x: ENOTDIR: not a directory`);
    expect(systemErrorMessage(thrown(() => fs.renameSync(missing, path.join(dir, "b"))))).toBe(
      `${missing} → ${path.join(dir, "b")}: ENOENT: no such file or directory`,
    );
  });

  it("says which call failed when the error carries no path (a read of an open file)", () => {
    const fd = fs.openSync(dir, "r");
    try {
      expect(systemErrorMessage(thrown(() => fs.readSync(fd, Buffer.alloc(8))))).toBe(
        "reading a file failed (EISDIR: illegal operation on a directory)",
      );
    } finally {
      fs.closeSync(fd);
    }
  });

  it("calls zlib's errors damaged or cut gzip data", () => {
    const gzip = zlib.gzipSync(Buffer.alloc(1000, 7));
    expect(systemErrorMessage(thrown(() => zlib.gunzipSync(Buffer.from("not gzip at all"))))).toBe(
      "damaged gzip data (incorrect header check)",
    );
    expect(systemErrorMessage(thrown(() => zlib.gunzipSync(gzip.subarray(0, gzip.length - 10))))).toBe(
      "gzip data cut short (unexpected end of file)",
    );
  });

  it("leaves anything else alone", () => {
    expect(systemErrorMessage(new TypeError("text.includes is not a function"))).toBeUndefined();
    expect(systemErrorMessage(Object.assign(new Error("x"), { code: "ERR_INVALID_ARG_TYPE" }))).toBeUndefined();
    expect(systemErrorMessage(Object.assign(new Error("x"), { code: "EPERM" }))).toBeUndefined();
    expect(systemErrorMessage("ENOENT")).toBeUndefined();
    expect(systemErrorMessage(null)).toBeUndefined();
  });
});

describe("reportError", () => {
  it("prints one line: a TracemillError as it is, a system error by its file, a bug as an internal error", () => {
    expect(reported(new TracemillError("BAD_INPUT", "a.json, line 3: not JSON"))).toBe(
      "tracemill: a.json, line 3: not JSON\n",
    );
    const missing = path.join(dir, "nope");
    expect(reported(thrown(() => fs.readFileSync(missing)))).toBe(
      `tracemill: ${missing}: ENOENT: no such file or directory\n`,
    );
    expect(reported(new TypeError("text.includes is not a function"))).toBe(
      "tracemill: internal error: text.includes is not a function\n",
    );
    expect(reported(new Error("two\nlines"))).toBe("tracemill: internal error: two lines\n");
  });

  it("adds the stack under --debug only", () => {
    const bug = new TypeError("boom");
    expect(reported(bug).split("\n")).toHaveLength(2);
    expect(reported(bug, true)).toContain(`tracemill: internal error: boom\n${bug.stack}`);
  });
});

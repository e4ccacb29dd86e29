// The temporary-file spill through the shared RowSpill suite, and what it leaves on disk: nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isTracemillError } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { describeRowSpill } from "../../../core/src/testing/row-spill-suite.js";
import { FileRowSpill } from "./file-row-spill.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-spill-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
let files = 0;

describeRowSpill("temporary file", () => {
  const spill = new FileRowSpill(path.join(dir, `rows-${files++}`));
  return { spill, close: () => spill.close() };
});

describe("FileRowSpill", () => {
  it("creates no file until it is used, and leaves none in its directory once created", () => {
    const file = path.join(dir, "waiting-rows");
    const spill = new FileRowSpill(file);
    expect(fs.existsSync(file)).toBe(false);
    spill.append(Uint8Array.of(1, 2, 3), 0, 3);
    expect(fs.existsSync(file)).toBe(false);
    const into = new Uint8Array(3);
    spill.read(0, into, 3);
    expect([...into]).toEqual([1, 2, 3]);
    spill.close();
  });

  it("names the file and the reason when it cannot be created", () => {
    const spill = new FileRowSpill(path.join(dir, "no-such-dir", "rows"));
    try {
      spill.append(Uint8Array.of(1), 0, 1);
      expect.unreachable();
    } catch (error) {
      expect(isTracemillError(error) && error.code).toBe("OUTPUT_FAILED");
      expect((error as Error).message).toMatch(/no-such-dir\/rows: could not hold rows .*ENOENT/);
    }
  });
});

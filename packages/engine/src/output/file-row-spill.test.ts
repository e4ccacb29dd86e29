// The temporary-file spill through the shared RowSpill suite, and what it leaves on disk: nothing.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { isTracemillError } from "@tracemill/core";
import { afterAll, describe, expect, it, vi } from "vitest";
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
    const named = () => fs.readdirSync(dir).filter((name) => name.startsWith("waiting-rows"));
    const spill = new FileRowSpill(file);
    const opened = vi.spyOn(fs, "openSync");
    try {
      expect(named()).toEqual([]);
      spill.append(Uint8Array.of(1, 2, 3), 0, 3);
      expect(opened).toHaveBeenCalledTimes(1);
      expect(opened.mock.calls[0][0]).toBe(spill.path);
      expect(spill.path).toMatch(/\/waiting-rows\.[0-9a-f]{12}$/);
      spill.append(Uint8Array.of(4), 0, 1);
      expect(opened).toHaveBeenCalledTimes(1);
    } finally {
      opened.mockRestore();
    }
    expect(named()).toEqual([]);
    const into = new Uint8Array(4);
    spill.read(0, into, 4);
    expect([...into]).toEqual([1, 2, 3, 4]);
    spill.close();
  });

  it("neither trips over nor touches a file that a killed run left under its name", () => {
    const file = path.join(dir, "left-behind");
    fs.writeFileSync(file, "a crashed run's rows");
    const spill = new FileRowSpill(file);
    spill.append(Uint8Array.of(9, 8), 0, 2);
    const into = new Uint8Array(2);
    spill.read(0, into, 2);
    spill.close();
    expect([...into]).toEqual([9, 8]);
    expect(fs.readFileSync(file, "utf8")).toBe("a crashed run's rows");
    expect(fs.readdirSync(dir).filter((name) => name.startsWith("left-behind"))).toEqual(["left-behind"]);
  });

  it("names the file and the reason when it cannot be created", () => {
    const spill = new FileRowSpill(path.join(dir, "no-such-dir", "rows"));
    try {
      spill.append(Uint8Array.of(1), 0, 1);
      expect.unreachable();
    } catch (error) {
      expect(isTracemillError(error) && error.code).toBe("OUTPUT_FAILED");
      expect((error as Error).message).toMatch(/no-such-dir\/rows\.[0-9a-f]{12}: could not hold rows .*ENOENT/);
    }
  });
});

// Confinement of library paths: plain relative paths only, and real paths that stay inside the library whatever the
// symbolic links on the way say.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { isWithin, LibraryPathError, locateInLibrary, locateLibraryFile, relativeLibraryPath } from "./library-path.js";

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-library-path-")));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const root = path.join(tmp, "lab");
const outside = path.join(tmp, "outside");
fs.mkdirSync(path.join(root, "day1", "deep"), { recursive: true });
fs.mkdirSync(outside);
fs.writeFileSync(path.join(root, "day1", "a.pcap"), "inside");
fs.writeFileSync(path.join(outside, "secret.pcap"), "outside");
fs.symlinkSync(path.join(root, "day1", "a.pcap"), path.join(root, "alias.pcap"));
fs.symlinkSync("..", path.join(root, "day1", "deep", "up"));
fs.symlinkSync(path.join(outside, "secret.pcap"), path.join(root, "escape.pcap"));
fs.symlinkSync(outside, path.join(root, "escape-dir"));
fs.symlinkSync("../../outside", path.join(root, "day1", "relative-escape"));
fs.symlinkSync(path.join(root, "missing.pcap"), path.join(root, "dangling.pcap"));
// A sibling whose name starts with the library's: a prefix test without the separator would let it in.
fs.mkdirSync(`${root}2`);
fs.writeFileSync(path.join(`${root}2`, "b.pcap"), "sibling");
fs.symlinkSync(path.join(`${root}2`, "b.pcap"), path.join(root, "sibling.pcap"));

const library = { name: "lab", dir: root };

/** The refusal a call ends with: its status and message. */
async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await call.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LibraryPathError);
  const refused = error as LibraryPathError;
  return { status: refused.status, message: refused.message };
}

describe("relativeLibraryPath", () => {
  it("normalises empty and '.' segments and keeps the rest as written", () => {
    expect(relativeLibraryPath("")).toBe("");
    expect(relativeLibraryPath(".")).toBe("");
    expect(relativeLibraryPath("day1//./a.pcap/")).toBe("day1/a.pcap");
    expect(relativeLibraryPath("a..b/..c")).toBe("a..b/..c");
  });

  it("refuses '..' segments, absolute paths and NUL, naming the path", () => {
    expect(() => relativeLibraryPath("../outside")).toThrow('../outside: a library path cannot contain ".." segments');
    expect(() => relativeLibraryPath("day1/../../x")).toThrow(/^day1\/\.\.\/\.\.\/x: .*"\.\." segments/);
    expect(() => relativeLibraryPath("/etc/passwd")).toThrow("/etc/passwd: a library path is relative to the library");
    expect(() => relativeLibraryPath("a.pcap\0.txt")).toThrow("a.pcap\\u0000.txt: a library path cannot contain a NUL");
    const refused = (() => {
      try {
        relativeLibraryPath("..");
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(LibraryPathError);
    expect((refused as LibraryPathError).status).toBe(400);
    // What a job that cannot start shows: the message alone.
    expect(String(refused)).toBe('..: a library path cannot contain ".." segments');
  });
});

describe("isWithin", () => {
  it("takes the root and what is under it, not a sibling sharing its prefix", () => {
    expect(isWithin("/srv/lab", "/srv/lab")).toBe(true);
    expect(isWithin("/srv/lab", "/srv/lab/a")).toBe(true);
    expect(isWithin("/srv/lab", "/srv/lab2/a")).toBe(false);
    expect(isWithin("/", "/anything")).toBe(true);
  });
});

describe("locateInLibrary", () => {
  it("finds files and folders, through links that stay inside", async () => {
    expect((await locateInLibrary(library, "")).real).toBe(root);
    expect((await locateInLibrary(library, "day1/a.pcap")).real).toBe(path.join(root, "day1", "a.pcap"));
    const alias = await locateInLibrary(library, "alias.pcap");
    expect(alias).toMatchObject({ relative: "alias.pcap", real: path.join(root, "day1", "a.pcap") });
    expect((await locateInLibrary(library, "day1/deep/up/a.pcap")).real).toBe(path.join(root, "day1", "a.pcap"));
  });

  it("refuses a link out of the library, to a file or a folder, and through a folder link", async () => {
    for (const way of ["escape.pcap", "escape-dir", "escape-dir/secret.pcap", "day1/relative-escape/secret.pcap"]) {
      expect(await refusal(locateInLibrary(library, way))).toEqual({
        status: 400,
        message: `lab/${way}: leads outside the library (a symbolic link to elsewhere)`,
      });
    }
    expect((await refusal(locateInLibrary(library, "sibling.pcap"))).message).toMatch(/leads outside the library/);
  });

  it("answers 404 for nothing there, a dangling link included, and for a library this host cannot reach", async () => {
    expect(await refusal(locateInLibrary(library, "day2/x.pcap"))).toEqual({
      status: 404,
      message: "lab/day2/x.pcap: no such file or folder in the library",
    });
    expect((await refusal(locateInLibrary(library, "dangling.pcap"))).status).toBe(404);
    expect((await refusal(locateInLibrary(library, "day1/a.pcap/x"))).status).toBe(404);
    expect(await refusal(locateInLibrary({ name: "gone", dir: path.join(tmp, "gone") }, "a.pcap"))).toEqual({
      status: 404,
      message: "The library gone cannot be read on this server (ENOENT)",
    });
  });
});

describe("locateLibraryFile", () => {
  it("takes a regular file and refuses a folder or a device", async () => {
    expect((await locateLibraryFile(library, "alias.pcap")).stats.size).toBe("inside".length);
    expect(await refusal(locateLibraryFile(library, "day1"))).toEqual({
      status: 400,
      message: "lab/day1: a folder, not a file",
    });
    fs.symlinkSync("/dev/null", path.join(root, "device"));
    try {
      // /dev/null is outside the library: the confinement answers before the kind.
      expect((await refusal(locateLibraryFile(library, "device"))).message).toMatch(/leads outside/);
      expect(await refusal(locateLibraryFile({ name: "dev", dir: "/dev" }, "null"))).toEqual({
        status: 400,
        message: "dev/null: not a regular file",
      });
    } finally {
      fs.rmSync(path.join(root, "device"));
    }
  });
});

// Capture libraries through a real server, its `tracemill worker` and the real engine: a library added with the
// command, browsed over HTTP (captures found by their magic bytes, info read in the background and cached per size
// and modification time), confined at every step, and used as a job's input in place, never touched by the job.
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import zlib from "node:zlib";
import SqliteDatabase from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../test/helpers/fixtures.js";
import { runCli, type ServedApp } from "../../cli/test/run-cli.js";
import { Client, startServer, waitForStatus } from "./server-harness.js";
import { startWorkerProcess, until, type WorkerProcess } from "./worker-harness.js";

const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-libraries-")));
const lab = path.join(tmp, "lab");
const outside = path.join(tmp, "outside");
const data = path.join(tmp, "data");
/** A modification time the tests set and set again, so that a file changed in place keeps its version. */
const KEPT_TIME = 1_700_000_000;

const sha256sum = (file: string) => execFileSync("sha256sum", [file], { encoding: "utf8" }).split(" ")[0];
/** capinfos' packets, first and last time (seconds since the epoch, as text). */
function capinfos(file: string) {
  const out = spawnSync("capinfos", ["-T", "-r", "-M", "-c", "-a", "-e", "-S", file], { encoding: "utf8" }).stdout;
  const [, packets, first, last] = out.trim().split("\t");
  return { packets: Number(packets), first, last };
}
/** An ISO time with nanoseconds as seconds since the epoch with six decimals (capinfos' microseconds). */
function epoch(iso: string): string {
  const match = /^(.*T\d\d:\d\d:\d\d)\.(\d{9})Z$/.exec(iso);
  if (!match) throw new Error(`not an ISO time with nanoseconds: ${iso}`);
  return `${Date.parse(`${match[1]}Z`) / 1000}.${match[2].slice(0, 6)}`;
}

function copy(fixture: string, to: string): string {
  const target = path.join(lab, to);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  fs.copyFileSync(fixturePath(fixture), target);
  return target;
}

/** The cache row of a library file, read from the server's SQLite file as another program would. */
function cacheRow(relative: string): { sha256: string | null; info: string | null; checked_at: string } | undefined {
  const db = new SqliteDatabase(path.join(data, "tracemill.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare("select sha256, info, checked_at from library_entries where library = 'lab' and path = ?")
      .get(relative) as never;
  } finally {
    db.close();
  }
}

/** How many file rows the server's database holds: uploads, outputs brought in and library files alike. */
function fileRows(): number {
  const db = new SqliteDatabase(path.join(data, "tracemill.sqlite"), { readonly: true, fileMustExist: true });
  try {
    return (db.prepare("select count(*) as n from files").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

let app: ServedApp;
let worker: WorkerProcess | null = null;
const user = () => new Client(app.url);
let alice: Client;

// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
async function list(client: Client, folder?: string): Promise<any> {
  const query = folder === undefined ? "" : `?path=${encodeURIComponent(folder)}`;
  const answer = await client.call("GET", `/api/libraries/lab/entries${query}`);
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
}

/** Lists a folder until its entry is no longer pending; gives that entry. */
// biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
async function whenRead(folder: string, name: string): Promise<any> {
  // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
  let entry: any;
  await until(`${folder}/${name} read`, async () => {
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
    entry = (await list(alice, folder)).entries.find((e: any) => e.name === name);
    return entry !== undefined && !entry.pending;
  });
  return entry;
}

const extractOn = (relative: string) =>
  alice.call("POST", "/api/jobs", {
    title: relative,
    capability: "extract",
    inputs: { capture: { library: "lab", path: relative } },
  });

beforeAll(async () => {
  copy("same100_100-packets.pcap", "day1/capture.pcap");
  fs.writeFileSync(
    path.join(lab, "day1/capture.pcap.gz"),
    zlib.gzipSync(fs.readFileSync(fixturePath("same100_100-packets.pcap"))),
  );
  fs.writeFileSync(path.join(lab, "day1/notes.txt"), "captures of day 1\n");
  // A named pipe: opening it would wait for a writer, so it must be passed over without being opened.
  execFileSync("mkfifo", [path.join(lab, "day1/pipe.pcap")]);
  copy("erf_5-packets.erf", "erf5.erf");
  copy("pcapng-le_dhcp.pcapng", "swap.pcap");
  copy("dns53.pcap", ".hidden.pcap");
  fs.utimesSync(copy("pcap-le-ns_eth_get-to-ssh-server.pcap", "kept.pcap"), KEPT_TIME, KEPT_TIME);
  fs.symlinkSync("day1/capture.pcap", path.join(lab, "alias.pcap"));
  fs.mkdirSync(outside);
  fs.copyFileSync(fixturePath("dns53.pcap"), path.join(outside, "secret.pcap"));
  fs.symlinkSync(path.join(outside, "secret.pcap"), path.join(lab, "escape.pcap"));
  fs.symlinkSync(outside, path.join(lab, "escape-dir"));
  const added = runCli(["libraries", "add", "lab", lab, "--data", data]);
  expect(added.stderr).toBe("");
  expect(added.stdout).toBe(`added library lab: ${lab}\n`);
  // Jobs wait for the worker started later: what the files are when it starts is what it reads.
  app = await startServer({ dataDir: data, fake: false, workers: 0 });
  alice = user();
  await alice.signUp("Alice");
});

afterAll(async () => {
  await worker?.stop();
  await app?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe("capture libraries over HTTP", () => {
  it("answers 401 to a visitor who is not signed in", async () => {
    const visitor = user();
    for (const url of ["/api/libraries", "/api/libraries/lab/entries", "/api/libraries/lab/entries?path=day1"]) {
      const answer = await visitor.call("GET", url);
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ messages: ["Please sign in"] });
    }
  });

  it("names the libraries, never their directories", async () => {
    const answer = await alice.call("GET", "/api/libraries");
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([{ name: "lab" }]);
    expect(JSON.stringify(answer.body)).not.toContain(tmp);
  });

  it("describes the library routes in the OpenAPI document, with the folder as a query parameter", async () => {
    const doc = (await user().call("GET", "/api/openapi.json")).body;
    expect(doc.paths["/api/libraries"].get.summary).toMatch(/names only/);
    const entries = doc.paths["/api/libraries/{name}/entries"].get;
    expect(entries.parameters.map((p: { name: string; in: string }) => `${p.in}:${p.name}`)).toEqual([
      "path:name",
      "query:path",
    ]);
    const listing = entries.responses["200"].content["application/json"].schema;
    expect(Object.keys(listing.properties)).toEqual(["library", "path", "entries"]);
    const createJob = JSON.stringify(doc.paths["/api/jobs"].post.requestBody);
    expect(createJob).toContain('"library"');
  });

  it("lists a folder: sub-folders, then captures found by their first bytes, links inside the library included", async () => {
    const top = await list(alice);
    expect(top.library).toBe("lab");
    expect(top.path).toBe("");
    // biome-ignore lint/suspicious/noExplicitAny: tests read JSON bodies loosely
    expect(top.entries.map((e: any) => [e.type, e.name, e.format])).toEqual([
      ["directory", "day1", undefined],
      ["capture", "alias.pcap", "pcap"],
      ["capture", "erf5.erf", "erf"],
      ["capture", "kept.pcap", "pcap"],
      // Named .pcap, but pcapng by its first bytes.
      ["capture", "swap.pcap", "pcapng"],
    ]);
    expect(JSON.stringify(top)).not.toContain(tmp);
    const day1 = await list(alice, "day1");
    expect(day1.path).toBe("day1");
    expect(day1.entries).toMatchObject([
      { type: "capture", name: "capture.pcap", path: "day1/capture.pcap", format: "pcap", compression: null },
      { type: "capture", name: "capture.pcap.gz", path: "day1/capture.pcap.gz", format: "pcap", compression: "gzip" },
    ]);
    expect(day1.entries[0].size).toBe(fs.statSync(path.join(lab, "day1/capture.pcap")).size);
    expect(day1.entries[0].modifiedAt).toBe(fs.statSync(path.join(lab, "day1/capture.pcap")).mtime.toISOString());
  });

  it("reads each capture's info in the background, the listing saying meanwhile which are pending", async () => {
    fs.copyFileSync(fixturePath("ssh-normal-kali.pcap"), path.join(lab, "day1/new.pcap"));
    const first = (await list(alice, "day1")).entries.find((e: { name: string }) => e.name === "new.pcap");
    expect(first).toMatchObject({ pending: true, info: null });
    const read = await whenRead("day1", "new.pcap");
    const expected = capinfos(path.join(lab, "day1/new.pcap"));
    expect(read.info.packets).toBe(expected.packets);
    expect(epoch(read.info.first)).toBe(expected.first);
    expect(epoch(read.info.last)).toBe(expected.last);
    expect(read.info.linkTypes).toEqual([{ linkType: 1, name: "Ethernet", packets: expected.packets }]);
    expect(read.info.complete).toBe(true);
    const gz = await whenRead("day1", "capture.pcap.gz");
    expect(gz.info.packets).toBe(capinfos(path.join(lab, "day1/capture.pcap")).packets);
    // The pass took the SHA-256 of the stored bytes too, once.
    expect(cacheRow("day1/new.pcap")?.sha256).toBe(sha256sum(path.join(lab, "day1/new.pcap")));
    expect(cacheRow("day1/capture.pcap.gz")?.sha256).toBe(sha256sum(path.join(lab, "day1/capture.pcap.gz")));
  });

  it("refuses paths that leave the library or are not plain relative paths, naming them (400)", async () => {
    const refused: [string, number, string][] = [
      ["..", 400, '..: a library path cannot contain ".." segments'],
      ["day1/../..", 400, 'day1/../..: a library path cannot contain ".." segments'],
      ["/etc", 400, '/etc: a library path is relative to the library; it cannot start with "/"'],
      ["day1\0", 400, "day1\\u0000: a library path cannot contain a NUL character"],
      ["escape-dir", 400, "lab/escape-dir: leads outside the library (a symbolic link to elsewhere)"],
      ["escape.pcap", 400, "lab/escape.pcap: leads outside the library (a symbolic link to elsewhere)"],
      ["day1/capture.pcap", 400, "lab/day1/capture.pcap: a file, not a folder"],
      ["day2", 404, "lab/day2: no such file or folder in the library"],
    ];
    for (const [folder, status, message] of refused) {
      const answer = await alice.call("GET", `/api/libraries/lab/entries?path=${encodeURIComponent(folder)}`);
      expect([folder, answer.status, answer.body]).toEqual([folder, status, { messages: [message] }]);
    }
    expect((await alice.call("GET", "/api/libraries/nope/entries")).body).toEqual({
      messages: ["No library named nope"],
    });
  });

  it("refuses the same paths, folders and files that are no capture as job inputs (400)", async () => {
    const refused: [string, string][] = [
      ["../outside/secret.pcap", '../outside/secret.pcap: a library path cannot contain ".." segments'],
      [`${outside}/secret.pcap`, `${outside}/secret.pcap: a library path is relative`],
      ["escape.pcap", "lab/escape.pcap: leads outside the library"],
      ["escape-dir/secret.pcap", "lab/escape-dir/secret.pcap: leads outside the library"],
      ["day1", "lab/day1: a folder, not a file"],
      ["day1/nothing.pcap", "lab/day1/nothing.pcap: no such file or folder in the library"],
      ["day1/notes.txt", "lab/day1/notes.txt: Unrecognised file format"],
      ["day1/pipe.pcap", "lab/day1/pipe.pcap: not a regular file"],
      ["a\0b", "a\\u0000b: a library path cannot contain a NUL character"],
    ];
    for (const [relative, message] of refused) {
      const answer = await extractOn(relative);
      expect([relative, answer.status]).toEqual([relative, 400]);
      expect(answer.body.messages.join(" ")).toContain(message);
      expect(JSON.stringify(answer.body)).not.toContain(lab);
    }
    const unknown = await alice.call("POST", "/api/jobs", {
      title: "x",
      capability: "extract",
      inputs: { capture: { library: "nope", path: "a.pcap" } },
    });
    expect([unknown.status, unknown.body]).toEqual([400, { messages: ["No library named nope"] }]);
    // Nothing was kept of the refused requests (a library's file as an input is a row, not an upload: no listing shows it).
    expect(fileRows()).toBe(0);
    expect((await alice.call("GET", "/api/jobs")).body.jobs).toEqual([]);
  });

  it("reads a version of a file once: the same size and time reuse the cache, a new size or time is read again", async () => {
    const file = path.join(lab, "kept.pcap");
    const original = sha256sum(file);
    const read = await whenRead("", "kept.pcap");
    expect(read.info.packets).toBe(capinfos(file).packets);
    const cached = cacheRow("kept.pcap");
    expect(cached?.sha256).toBe(original);
    // Listed again: nothing is read again.
    expect((await list(alice)).entries.find((e: { name: string }) => e.name === "kept.pcap").pending).toBe(false);
    expect(cacheRow("kept.pcap")).toEqual(cached);
    // A byte changed in place with the size and time kept: the same version as far as the cache can tell, so a job
    // takes the recorded digest without hashing the file again.
    const bytes = fs.readFileSync(file);
    bytes[bytes.length - 1] ^= 0xff;
    fs.writeFileSync(file, bytes);
    fs.utimesSync(file, KEPT_TIME, KEPT_TIME);
    expect(sha256sum(file)).not.toBe(original);
    const job = await extractOn("kept.pcap");
    expect(job.status).toBe(201);
    expect(job.body.inputs[0]).toMatchObject({ name: "kept.pcap", sha256: original, size: bytes.length });
    expect(cacheRow("kept.pcap")).toEqual(cached);
    // A new modification time: read again, hashed again.
    fs.utimesSync(file, KEPT_TIME + 10, KEPT_TIME + 10);
    expect((await list(alice)).entries.find((e: { name: string }) => e.name === "kept.pcap").pending).toBe(true);
    await whenRead("", "kept.pcap");
    expect(cacheRow("kept.pcap")?.sha256).toBe(sha256sum(file));
    // A new size with the time kept: read again.
    fs.copyFileSync(fixturePath("same100_100-packets-ns.pcap"), file);
    fs.utimesSync(file, KEPT_TIME + 10, KEPT_TIME + 10);
    const resized = await whenRead("", "kept.pcap");
    expect(resized.info.packets).toBe(capinfos(file).packets);
    expect(resized.size).toBe(fs.statSync(file).size);
    expect(cacheRow("kept.pcap")?.sha256).toBe(sha256sum(file));
    await alice.call("DELETE", `/api/jobs/${job.body.id}`);
  });

  it("hashes a file no listing has read when a job first takes it, and keeps that digest for the next", async () => {
    const file = path.join(lab, "day1", "fresh.pcap");
    fs.copyFileSync(fixturePath("wikipedia-browse.pcap"), file);
    const first = await extractOn("day1/fresh.pcap");
    expect(first.status).toBe(201);
    expect(first.body.inputs[0]).toMatchObject({
      name: "fresh.pcap",
      sha256: sha256sum(file),
      format: "pcap",
      library: { name: "lab", path: "day1/fresh.pcap" },
    });
    const hashed = cacheRow("day1/fresh.pcap");
    expect(hashed).toMatchObject({ sha256: sha256sum(file), info: null });
    const second = await extractOn("day1/fresh.pcap");
    expect(second.body.inputs[0].sha256).toBe(sha256sum(file));
    expect(cacheRow("day1/fresh.pcap")).toEqual(hashed);
    for (const job of [first, second]) await alice.call("DELETE", `/api/jobs/${job.body.id}`);
  });

  it("runs jobs on library files in place, confines them again when they start, and deleting one leaves the file", async () => {
    const capture = path.join(lab, "day1/capture.pcap");
    const before = { sha256: sha256sum(capture), mtimeMs: fs.statSync(capture).mtimeMs };
    const plain = await extractOn("day1/capture.pcap");
    const gzip = await extractOn("day1/capture.pcap.gz");
    const aliased = await extractOn("alias.pcap");
    const swapped = await extractOn("swap.pcap");
    for (const job of [plain, gzip, aliased, swapped]) expect(job.status, JSON.stringify(job.body)).toBe(201);
    // After the job was accepted, the file becomes a link out of the library: the worker must not follow it.
    fs.rmSync(path.join(lab, "swap.pcap"));
    fs.symlinkSync(path.join(outside, "secret.pcap"), path.join(lab, "swap.pcap"));
    worker = await startWorkerProcess(data, 1);

    const done = await waitForStatus(alice, plain.body.id, ["succeeded", "failed"], 60_000);
    expect(done.status, done.error).toBe("succeeded");
    expect(done.inputs).toMatchObject([
      {
        role: "capture",
        name: "capture.pcap",
        sha256: before.sha256,
        library: { name: "lab", path: "day1/capture.pcap" },
      },
    ]);
    expect(done.outputs.map((o: { name: string }) => o.name)).toContain("features.csv");
    const csv = await alice.call("GET", `/api/jobs/${plain.body.id}/outputs/features.csv`);
    expect(csv.status).toBe(200);
    expect(String(csv.body).trim().split("\n").length).toBeGreaterThan(1);
    expect(JSON.stringify(done)).not.toContain(tmp);
    for (const other of [gzip, aliased]) {
      const end = await waitForStatus(alice, other.body.id, ["succeeded", "failed"], 60_000);
      expect(end.status, end.error).toBe("succeeded");
    }
    const refused = await waitForStatus(alice, swapped.body.id, ["succeeded", "failed"], 60_000);
    expect(refused.status).toBe("failed");
    expect(refused.error).toBe(
      "The job could not start: lab/swap.pcap: leads outside the library (a symbolic link to elsewhere)",
    );

    // The job's input was never a stored file, and deleting the job leaves the library's file as it was.
    const inputId = done.inputs[0].id;
    expect(fs.existsSync(path.join(data, "files", inputId))).toBe(false);
    expect((await alice.call("DELETE", `/api/jobs/${plain.body.id}`)).status).toBe(204);
    expect((await alice.call("GET", `/api/jobs/${plain.body.id}`)).status).toBe(404);
    expect(sha256sum(capture)).toBe(before.sha256);
    expect(fs.statSync(capture).mtimeMs).toBe(before.mtimeMs);
    expect(fs.readdirSync(path.join(lab, "day1")).sort()).toEqual([
      "capture.pcap",
      "capture.pcap.gz",
      "fresh.pcap",
      "new.pcap",
      "notes.txt",
      "pipe.pcap",
    ]);
  });
});

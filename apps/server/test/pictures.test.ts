// The gallery and the IPT plots over HTTP, on real images and ipt jobs of a fixture capture: pages, PNGs, sessions
// and series checked against the downloaded outputs read independently (Info-ZIP's unzip, the manifest, CSV and IPT
// lines split in the test); who may read is the downloads' rule (owner, or anyone for a public job, signed out too;
// 404 otherwise); wrong numbers and parameters answer 400 or 404 naming them; no answer names a server path.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, finishedJob as finishedJobOf, fixture, startServer } from "./server-harness.js";

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-pictures-"));
let app: ServedApp;
let owner: Client;
let other: Client;
let anonymous: Client;
let captureId: string;
/** Every answer's body, for the check that none names a server path. */
const bodies: string[] = [];

beforeAll(async () => {
  app = await startServer({ fake: false });
  owner = new Client(app.url);
  other = new Client(app.url);
  anonymous = new Client(app.url);
  await owner.signUp("Pictures");
  await other.signUp("Someone");
  captureId = (await owner.upload("wikipedia-browse.pcap", fixture("wikipedia-browse.pcap"))).body.id;
});
afterAll(async () => {
  await app?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const finishedJob = (capability: string, params: Record<string, unknown>, isPublic: boolean) =>
  finishedJobOf(owner, { capability, params, captureId, public: isPublic, title: `${capability} pictures` });

async function get(client: Client, url: string) {
  const answer = await client.call("GET", url);
  bodies.push(typeof answer.body === "string" ? answer.body.slice(0, 200) : JSON.stringify(answer.body));
  return answer;
}

/** An output's bytes as downloaded, written to a file of the test's. */
async function download(job: string, name: string): Promise<string> {
  const response = await owner.raw("GET", `/api/jobs/${job}/outputs/${name}`);
  expect(response.status).toBe(200);
  const file = path.join(tmp, `${job}-${name}`);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

const unzipped = (zip: string, entry: string) => execFileSync("unzip", ["-p", zip, entry], { maxBuffer: 1 << 26 });
const lines = (text: string) => text.replace(/\n$/, "").split("\n");

describe("the gallery's API", () => {
  let job: string;
  let publicJob: string;
  let zip: string;

  beforeAll(async () => {
    [job, publicJob] = await Promise.all([
      finishedJob("images", { flowsPerImage: 4 }, false),
      finishedJob("images", { flowsPerImage: 4 }, true),
    ]);
    zip = await download(job, "images.zip");
  });

  const pageOf = (id: string, query = "") => `/api/jobs/${id}/outputs/images.zip/images${query}`;

  it("answers a page of images, each row with its manifest line and its session from the CSV", async () => {
    const pngs = execFileSync("unzip", ["-Z1", zip], { encoding: "utf8" })
      .split("\n")
      .filter((name) => name.endsWith(".png"));
    const [, ...manifest] = lines(unzipped(zip, "manifest.csv").toString());
    const [header, ...csv] = lines(unzipped(zip, "features.csv").toString());
    const column = (name: string) => header.split(",").indexOf(name);
    expect(pngs.length).toBeGreaterThan(3);

    const answer = await get(owner, pageOf(job, "?offset=1&limit=2"));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body).toMatchObject({
      output: "images.zip",
      total: pngs.length,
      sessions: manifest.length,
      labelColumns: [],
      offset: 1,
      limit: 2,
      nextOffset: 3,
    });
    expect(answer.body.images.map((image: { name: string }) => image.name)).toEqual(pngs.slice(1, 3));
    const [second] = answer.body.images;
    expect(second.number).toBe(2);
    const expectedRows = manifest
      .map((line) => line.split(","))
      .filter(([image]) => image === pngs[1])
      .map(([, row, csvRow]) => {
        const cells = csv[Number(csvRow) - 1].split(",");
        return {
          row: Number(row),
          csvRow: Number(csvRow),
          labels: [],
          session: {
            protocol: Number(cells[column("protocol")]),
            start: cells[column("ts")],
            srcIP: cells[column("srcIP")],
            srcPort: Number(cells[column("srcPrt")]),
            dstIP: cells[column("dstIP")],
            dstPort: Number(cells[column("dstPrt")]),
          },
        };
      });
    expect(expectedRows).toHaveLength(4);
    expect(second.rows).toEqual(expectedRows);
    const last = await get(owner, pageOf(job, `?offset=${pngs.length - 1}`));
    expect(last.body.nextOffset).toBeNull();
    expect(last.body.images).toHaveLength(1);
  });

  it("sends any image's PNG as the zip holds it", async () => {
    const response = await owner.raw("GET", `${pageOf(job)}/3`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("image/png");
    expect(response.headers.get("cache-control")).toBe("private, max-age=3600");
    expect(Buffer.from(await response.arrayBuffer()).equals(unzipped(zip, "images/image-000003.png"))).toBe(true);
  });

  it("lets only the owner read a private job's images, and anyone a public job's, signed out too", async () => {
    for (const client of [other, anonymous]) {
      expect((await get(client, pageOf(job))).status).toBe(404);
      expect((await get(client, `${pageOf(job)}/1`)).status).toBe(404);
    }
    const signedOut = await get(anonymous, pageOf(publicJob, "?limit=1"));
    expect(signedOut.status).toBe(200);
    expect(signedOut.body.images[0].rows.length).toBeGreaterThan(0);
    const png = await anonymous.raw("GET", `${pageOf(publicJob)}/1`);
    expect(png.status).toBe(200);
    expect(
      Buffer.from(await png.arrayBuffer())
        .subarray(1, 4)
        .toString(),
    ).toBe("PNG");
  });

  it("answers a wrong image number, parameter or output in words", async () => {
    const { total } = (await get(owner, pageOf(job))).body;
    const word = await get(owner, `${pageOf(job)}/abc`);
    expect(word.status).toBe(400);
    expect(word.body.messages).toEqual([`Invalid image number "abc": its images are numbered 1 to ${total}`]);
    for (const number of ["0", "99999"]) {
      const missing = await get(owner, `${pageOf(job)}/${number}`);
      expect(missing.status).toBe(404);
      expect(missing.body.messages).toEqual([
        `images.zip has no image ${number}: its images are numbered 1 to ${total}`,
      ]);
    }
    const limit = await get(owner, pageOf(job, "?limit=500"));
    expect(limit.status).toBe(400);
    expect(limit.body.messages[0]).toMatch(/^Invalid query parameter limit: /);
    const unknown = await get(owner, pageOf(job, "?colour=red"));
    expect(unknown.body.messages).toEqual(["Unknown query parameter colour (the parameters are offset, limit)"]);
    const summary = await get(owner, `/api/jobs/${job}/outputs/summary.json/images`);
    expect(summary.status).toBe(400);
    expect(summary.body.messages).toEqual(["summary.json is no images zip: the gallery reads an images job's output"]);
    expect((await get(owner, `/api/jobs/${job}/outputs/nothing.zip/images`)).status).toBe(404);
  });
});

describe("the IPT plots' API", () => {
  let job: string;
  let iptLines: string[];
  let csv: string[][];

  beforeAll(async () => {
    job = await finishedJob("ipt", {}, true);
    iptLines = lines(fs.readFileSync(await download(job, "ipt.txt"), "utf8"));
    csv = lines(fs.readFileSync(await download(job, "features.csv"), "utf8"))
      .slice(1)
      .map((line) => line.split(","));
  });

  const sessionsOf = (query: string) => `/api/jobs/${job}/outputs/ipt.txt/sessions${query}`;
  const seriesOf = (query: string) => `/api/jobs/${job}/outputs/ipt.txt/series${query}`;
  const packets = (row: number) => (iptLines[row - 1] === "" ? 1 : iptLines[row - 1].split(",").length + 1);

  it("lists the first sessions with their packets, and finds sessions by address, port and size", async () => {
    const first = await get(anonymous, sessionsOf("?limit=5"));
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.total).toBe(iptLines.length);
    expect(first.body.sessions.map((s: { row: number }) => s.row)).toEqual([1, 2, 3, 4, 5]);
    expect(first.body.sessions.map((s: { packets: number }) => s.packets)).toEqual([1, 2, 3, 4, 5].map(packets));
    expect(first.body.sessions[2].session.srcIP).toBe(csv[2][2]);
    expect(first.body.nextFrom).toBe(6);

    // Every session of the longest session's destination on its port, with at least 3 packets, in one request.
    const longest = csv.reduce((best, _, i) => (packets(i + 1) > packets(best + 1) ? i : best), 0);
    const [address, port] = [csv[longest][4], csv[longest][5]];
    const wanted = csv
      .map((cells, i) => ({ cells, row: i + 1 }))
      .filter(({ cells, row }) => (cells[2] === address || cells[4] === address) && packets(row) >= 3)
      .filter(({ cells }) => cells[3] === port || cells[5] === port)
      .map(({ row }) => row);
    expect(wanted.length).toBeGreaterThan(0);
    const found = await get(anonymous, sessionsOf(`?q=${encodeURIComponent(`${address} ${port}`)}&minPackets=3`));
    expect(found.body.sessions.map((s: { row: number }) => s.row)).toEqual(wanted.slice(0, 20));
  });

  it("sends the gaps of chosen sessions as the IPT file writes them", async () => {
    const rows = [1, 2, 3, 4, 5].filter((row) => packets(row) > 1).slice(0, 2);
    const answer = await get(anonymous, seriesOf(`?rows=${rows.join(",")}`));
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    expect(answer.body.maxGaps).toBe(5000);
    expect(answer.body.series.map((s: { row: number; gaps: number[] }) => [s.row, s.gaps])).toEqual(
      rows.map((row) => [row, iptLines[row - 1].split(",").slice(0, 5000).map(Number)]),
    );
  });

  it("answers wrong searches and rows in words, and another user's private job with 404", async () => {
    const port = await get(owner, sessionsOf("?q=70000"));
    expect(port.status).toBe(400);
    expect(port.body.messages).toEqual(['Invalid query parameter q: "70000" is no port (0–65535) and no address']);
    const words = await get(owner, seriesOf("?rows=a,b"));
    expect(words.status).toBe(400);
    expect(words.body.messages[0]).toBe(
      "Invalid query parameter rows: data rows as numbers apart by commas, such as 3,17",
    );
    const many = await get(owner, seriesOf("?rows=1,2,3,4,5,6,7,8,9"));
    expect(many.body.messages).toEqual(["Invalid query parameter rows: at most 8 sessions at a time"]);
    const beyond = await get(owner, seriesOf(`?rows=${iptLines.length + 1}`));
    expect(beyond.body.messages).toEqual([
      `Invalid query parameter rows: ipt.txt has ${iptLines.length} sessions, not a row ${iptLines.length + 1}`,
    ]);
    const csvOutput = await get(owner, `/api/jobs/${job}/outputs/features.csv/sessions`);
    expect(csvOutput.body.messages).toEqual(["features.csv is no IPT output: the plots read an ipt job's ipt.txt"]);
    const hidden = await owner.call("PATCH", `/api/jobs/${job}`, { public: false });
    expect(hidden.status).toBe(200);
    expect((await get(other, sessionsOf(""))).status).toBe(404);
    expect((await get(anonymous, seriesOf("?rows=1"))).status).toBe(404);
    expect((await get(owner, seriesOf("?rows=1"))).status).toBe(200);
  });

  it("names no server path in any answer", () => {
    const paths = [app.dataDir, fs.realpathSync(app.dataDir)];
    for (const body of bodies) for (const dir of paths) expect(body).not.toContain(dir);
  });
});

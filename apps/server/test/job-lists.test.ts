// GET /api/jobs and /api/jobs/public against a real server with the test engine: the query validated with messages
// naming the parameter, pages with their total, search/filter/sort on what runs wrote (output bytes, failures), who
// sees what (signed out too), and the original product's lists left as whole arrays.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer, waitForStatus } from "./server-harness.js";

let app: ServedApp;
let owner: Client;
let other: Client;
let anonymous: Client;
/**
 * The owner's jobs, oldest first: three that succeed (two public), one that fails. The oldest read the larger
 * capture, so sorting by size differs from the default newest first.
 */
const made: { id: string; title: string; public: boolean }[] = [];

beforeAll(async () => {
  app = await startServer({ workers: 2 });
  owner = new Client(app.url);
  other = new Client(app.url);
  anonymous = new Client(app.url);
  await owner.signUp("Owner");
  await other.signUp("Other");
  const raw = (await owner.upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"))).body.id;
  const dns = (await owner.upload("dns53.pcap", fixture("dns53.pcap"))).body.id;
  const plan = [
    { title: "DNS sessions", file: dns, public: false, idleTimeout: 120 },
    { title: "Raw sessions", file: raw, public: true, idleTimeout: 120 },
    { title: "Shared DNS", file: dns, public: true, idleTimeout: 120 },
    // The test engine fails a run whose idle timeout is 2.
    { title: "Broken run", file: raw, public: false, idleTimeout: 2 },
  ];
  for (const each of plan) {
    const created = await owner.call("POST", "/api/jobs", {
      title: each.title,
      public: each.public,
      capability: "extract",
      params: { activeTimeout: 1, idleTimeout: each.idleTimeout },
      inputs: { capture: { fileId: each.file } },
    });
    expect(created.status).toBe(201);
    await waitForStatus(owner, created.body.id, ["succeeded", "failed"]);
    made.push({ id: created.body.id, title: each.title, public: each.public });
  }
});
afterAll(async () => {
  await app?.stop();
});

const titles = (body: { jobs: { title: string }[] }) => body.jobs.map((job) => job.title);

describe("the query", () => {
  it("answers 400 naming each wrong parameter, and 401 to a visitor before reading it", async () => {
    const wrong = await owner.call("GET", "/api/jobs?limit=500&sort=colour&status=great");
    expect(wrong.status).toBe(400);
    expect(wrong.body.messages).toEqual([
      "Invalid query parameter status: Invalid option: expected one of " +
        '"queued"|"running"|"succeeded"|"warning"|"failed"|"cancelled"',
      'Invalid query parameter sort: Invalid option: expected one of "title"|"capability"|"status"|"sessions"|"size"|"created"|"runtime"',
      "Invalid query parameter limit: Too big: expected number to be <=200",
    ]);
    const unknown = await anonymous.call("GET", "/api/jobs/public?sortBy=title");
    expect([unknown.status, unknown.body.messages]).toEqual([
      400,
      ["Unknown query parameter sortBy (the parameters are q, capability, status, sort, order, limit, offset)"],
    ]);
    expect((await anonymous.call("GET", "/api/jobs?limit=abc")).status).toBe(401);
  });
});

describe("my jobs", () => {
  it("answers the newest 50 first with the total, and pages on from nextOffset", async () => {
    const all = await owner.call("GET", "/api/jobs");
    expect(all.status).toBe(200);
    expect({ ...all.body, jobs: titles(all.body) }).toEqual({
      jobs: ["Broken run", "Shared DNS", "Raw sessions", "DNS sessions"],
      total: 4,
      offset: 0,
      limit: 50,
      nextOffset: null,
    });
    const first = (await owner.call("GET", "/api/jobs?limit=3")).body;
    expect([titles(first), first.total, first.nextOffset]).toEqual([
      ["Broken run", "Shared DNS", "Raw sessions"],
      4,
      3,
    ]);
    const second = (await owner.call("GET", `/api/jobs?limit=3&offset=${first.nextOffset}`)).body;
    expect([titles(second), second.total, second.nextOffset]).toEqual([["DNS sessions"], 4, null]);
  });

  it("sorts by the bytes a run wrote, as its outputs add up", async () => {
    const succeeded = made.slice(0, 3);
    const bytes = new Map<string, number>();
    for (const job of succeeded) {
      const { outputs } = (await owner.call("GET", `/api/jobs/${job.id}`)).body;
      bytes.set(
        job.title,
        outputs.reduce((sum: number, o: { size: number }) => sum + o.size, 0),
      );
    }
    // Two runs over the same capture write the same bytes: the newer one comes first.
    const expected = [...succeeded]
      .reverse()
      .sort((a, b) => bytes.get(b.title)! - bytes.get(a.title)!)
      .map((job) => job.title);
    const sorted = (await owner.call("GET", "/api/jobs?sort=size&status=succeeded")).body;
    expect(titles(sorted)).toEqual(expected);
    // The failed run wrote nothing: last whichever way.
    const smallestFirst = [...succeeded]
      .reverse()
      .sort((a, b) => bytes.get(a.title)! - bytes.get(b.title)!)
      .map((job) => job.title);
    const ascending = (await owner.call("GET", "/api/jobs?sort=size&order=asc")).body;
    expect(titles(ascending)).toEqual([...smallestFirst, "Broken run"]);
  });

  it("searches titles and input names, and filters by outcome and capability", async () => {
    const search = async (query: string) => titles((await owner.call("GET", `/api/jobs?${query}`)).body);
    expect(await search("q=dns53")).toEqual(["Shared DNS", "DNS sessions"]);
    expect(await search("q=RAW")).toEqual(["Broken run", "Raw sessions"]);
    expect(await search("q=raw&status=succeeded")).toEqual(["Raw sessions"]);
    expect(await search("status=failed")).toEqual(["Broken run"]);
    expect(await search("q=feature%20extraction&capability=extract&sort=title")).toEqual([
      "Broken run",
      "DNS sessions",
      "Raw sessions",
      "Shared DNS",
    ]);
    expect(await search("capability=merge")).toEqual([]);
  });

  it("lists only the user's own jobs", async () => {
    expect((await other.call("GET", "/api/jobs")).body).toMatchObject({ jobs: [], total: 0 });
    expect((await other.call("GET", "/api/jobs?q=dns")).body).toMatchObject({ jobs: [], total: 0 });
  });
});

describe("public jobs", () => {
  it("are readable signed out, never another user's private job, and name no server path", async () => {
    const seen = await anonymous.call("GET", "/api/jobs/public");
    expect(seen.status).toBe(200);
    expect([titles(seen.body), seen.body.total]).toEqual([["Shared DNS", "Raw sessions"], 2]);
    expect(seen.body.jobs.every((job: { isOwner: boolean }) => !job.isOwner)).toBe(true);
    expect(JSON.stringify(seen.body)).not.toContain(app.dataDir);
    // A private job stays unseen even when the search names it exactly.
    expect((await other.call("GET", "/api/jobs/public?q=DNS%20sessions")).body).toMatchObject({ jobs: [], total: 0 });
    expect(titles((await other.call("GET", "/api/jobs/public?q=dns&sort=title")).body)).toEqual(["Shared DNS"]);
    const mineAmongThem = (await owner.call("GET", "/api/jobs/public")).body.jobs;
    expect(mineAmongThem.map((job: { isOwner: boolean }) => job.isOwner)).toEqual([true, true]);
  });
});

describe("the original product's lists", () => {
  it("stay whole arrays, whatever the query says", async () => {
    const mine = await owner.call("GET", "/dataSets?limit=1");
    expect(mine.body.map((job: { title: string }) => job.title)).toEqual([
      "Broken run",
      "Shared DNS",
      "Raw sessions",
      "DNS sessions",
    ]);
    const shared = await anonymous.call("GET", "/public/dataSets");
    expect(shared.body.map((job: { _id: string }) => job._id)).toEqual([made[2].id, made[1].id]);
  });
});

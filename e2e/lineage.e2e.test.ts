// Lineage, "Run again with changes", Retry and what another user sees, in real Chromium against `tracemill serve` with
// the real engine: a sanitize → merge → label chain of small captures, made through the API as the signed-in user.
import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoRoot, type ServedApp } from "../apps/cli/test/run-cli.js";
import { screenshot } from "./browser.js";
import { call, closeApp, ended, type Json, openApp, openWindow, runJob, uploadFixture } from "./ui-helpers.js";

const alice = { userName: "alice", email: "alice@example.org", password: "alice-password" };
const bob = { userName: "bob", email: "bob@example.org", password: "bob-password-1" };

/** Registers and signs in from a page of the server's origin (a small JSON answer, not the web app). */
async function signUp(page: Page, base: string, user: { userName: string; email: string; password: string }) {
  await page.goto(`${base}/api/health`);
  const registered = await call(page, "POST", "/api/auth/register", { ...user, Renewpassword: user.password });
  expect(registered.status).toBe(201);
  expect((await call(page, "POST", "/api/auth/login", { email: user.email, password: user.password })).status).toBe(
    200,
  );
}

const details = (app: ServedApp, id: string) => `${app.url}/ui/details?id=${encodeURIComponent(id)}`;

describe("lineage in the browser", () => {
  let app: ServedApp;
  let browser: Browser;
  let page: Page;
  let bobPage: Page;
  /** What the browser refused under the Content-Security-Policy while showing Alice's pages (none is wanted). */
  const refused: string[] = [];
  const job: Record<"sanitize" | "merge" | "label" | "failed", Json> = {} as never;

  beforeAll(async () => {
    const viewport = { width: 1280, height: 900 };
    ({ app, browser, page } = await openApp({ serveArgs: ["--workers", "2"], viewport }));
    bobPage = await openWindow(browser, app.url, { viewport });
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) refused.push(message.text());
    });
    // The accounts' forms have their own tests (web-app.e2e.test.ts): here both sign up through the API, at once.
    await Promise.all([signUp(page, app.url, alice), signUp(bobPage, app.url, bob)]);
    const attack = await uploadFixture(page, "log4shell-exploit.pcap");
    const web = await uploadFixture(page, "wikipedia-browse.pcap");
    expect(attack).toBeTypeOf("string");
    expect(web).toBeTypeOf("string");
    // CIC's exact rows cannot be written as Parquet: the job is taken, then fails with the engine's reason.
    const failing = await call(page, "POST", "/api/jobs", {
      title: "Parquet CIC rows",
      capability: "extract",
      params: { features: ["cic"], cicCompat: true, format: "parquet" },
      inputs: { capture: { fileId: web } },
    });
    expect(failing.status).toBe(201);
    job.sanitize = await runJob(page, {
      title: "Log4Shell sanitized",
      capability: "sanitize",
      inputs: { capture: { fileId: attack } },
    });
    job.merge = await runJob(page, {
      title: "Wikipedia with Log4Shell",
      capability: "merge",
      public: true,
      params: { at: 1 },
      inputs: { background: { fileId: web }, attacks: { jobId: job.sanitize.id, output: "attacks.pcap" } },
    });
    job.label = await runJob(page, {
      title: "Labels of the mix",
      capability: "label",
      public: true,
      params: { mode: "binary" },
      inputs: { capture: { jobId: job.merge.id, output: "merged.pcap" } },
    });
    job.failed = await ended(page, failing.body.id);
    for (const name of ["sanitize", "merge", "label"] as const) expect(job[name].status, name).toBe("succeeded");
    expect(job.failed.status).toBe("failed");
  });
  afterAll(() => closeApp(app, browser));

  it("draws the chain on details; a box and an input's link open the jobs they name", async () => {
    await page.goto(details(app, job.label.id));
    const graph = page.getByRole("img", { name: /^Lineage of “Labels of the mix”/ });
    await graph.waitFor();
    expect(await graph.getAttribute("aria-label")).toBe(
      "Lineage of “Labels of the mix”: Traffic Sanitization “Log4Shell sanitized” gave attacks.pcap to Controlled " +
        "Traffic Aggregation “Wikipedia with Log4Shell”; Controlled Traffic Aggregation “Wikipedia with Log4Shell” " +
        "gave merged.pcap, merged.provenance.jsonl to Automated Traffic Labeling “Labels of the mix”.",
    );
    expect(await graph.locator(".lineage-node.current").textContent()).toContain("Labels of the mix");
    await screenshot(page, "lineage-details");

    await graph.locator(`a[data-job="${job.sanitize.id}"]`).click();
    await page.waitForURL(details(app, job.sanitize.id));
    await page.getByRole("heading", { level: 1, name: /Log4Shell sanitized/ }).waitFor();
    // From the first job: the jobs that used its outputs, two levels down.
    const down = page.getByRole("img", { name: /^Lineage of “Log4Shell sanitized”/ });
    await down.waitFor();
    expect(await down.locator(".lineage-node").count()).toBe(3);

    await page.goto(details(app, job.merge.id));
    const attacks = page.getByRole("row", { name: /^attacks\b/ });
    await attacks.getByText("output of").waitFor();
    await attacks.getByRole("link", { name: "Log4Shell sanitized" }).click();
    await page.waitForURL(details(app, job.sanitize.id));
    expect(refused).toEqual([]);
  });

  it("runs a job again with changes from a prefilled wizard, as a new job", async () => {
    await page.goto(details(app, job.merge.id));
    await page.getByRole("link", { name: "Run again with changes" }).click();
    await page.waitForURL(`${app.url}/ui/merge?from=${job.merge.id}`);
    expect(await page.getByLabel("Title").inputValue()).toBe("Wikipedia with Log4Shell (again)");
    await page.getByTestId("picked-file").filter({ hasText: "wikipedia-browse.pcap" }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByTestId("picked-file").filter({ hasText: "Log4Shell sanitized / attacks.pcap" }).waitFor();
    const at = page.getByLabel(/Insertion point/);
    expect(await at.inputValue()).toBe("1");
    await at.fill("2");
    await screenshot(page, "lineage-run-again");
    await page.getByRole("button", { name: "Create job" }).click();
    await page.waitForURL(`${app.url}/ui/dataSets`);
    const mine = (await call(page, "GET", "/api/jobs?q=again")).body.jobs;
    expect(mine.map((j: Json) => j.title)).toEqual(["Wikipedia with Log4Shell (again)"]);
    const again = (await call(page, "GET", `/api/jobs/${mine[0].id}`)).body;
    expect(again.params.at).toBe(2);
    const inputs = again.inputs.map((i: Json) => [i.role, i.name, i.from?.jobId]).sort();
    expect(inputs).toEqual([
      ["attacks", "attacks.pcap", job.sanitize.id],
      ["background", "wikipedia-browse.pcap", undefined],
    ]);
  });

  it("retries a failed job as a new job with the same inputs", async () => {
    await page.goto(details(app, job.failed.id));
    await page.getByText("Failed:").waitFor();
    await page.getByRole("button", { name: "Retry" }).click();
    await page.waitForURL((url) => url.searchParams.get("id") !== job.failed.id);
    const id = new URL(page.url()).searchParams.get("id") as string;
    await page.getByRole("heading", { level: 1, name: /Parquet CIC rows/ }).waitFor();
    await screenshot(page, "lineage-retry");
    const retried = (await call(page, "GET", `/api/jobs/${id}`)).body;
    expect(retried.inputs.map((i: Json) => i.id)).toEqual(job.failed.inputs.map((i: Json) => i.id));
    expect(retried.params).toEqual(job.failed.params);
    // The first run stays as it ended, for its error.
    expect((await call(page, "GET", `/api/jobs/${job.failed.id}`)).body.status).toBe("failed");
  });

  it("shows another user a public job read-only, without its private ancestor or any server path", async () => {
    const serverPaths = [app.dataDir, fs.realpathSync(app.dataDir), repoRoot];
    /** The page's text and HTML as another user gets them, checked for the server's directories. */
    async function noServerPath() {
      const seen = `${await bobPage.content()}\n${await bobPage.locator("body").innerText()}`;
      expect(serverPaths.filter((dir) => seen.includes(dir))).toEqual([]);
    }
    await bobPage.goto(details(app, job.label.id));
    const graph = bobPage.getByRole("img", { name: /^Lineage of “Labels of the mix”/ });
    await graph.waitFor();
    expect(await graph.locator(".lineage-node").count()).toBe(2);
    expect(await graph.getAttribute("aria-label")).not.toContain("Log4Shell sanitized");
    expect(await bobPage.getByRole("link", { name: "Edit" }).count()).toBe(0);
    await bobPage.getByRole("link", { name: "Run again with changes" }).waitFor();
    await noServerPath();
    await screenshot(bobPage, "lineage-non-owner");

    await bobPage.goto(`${app.url}/ui/update?id=${job.label.id}`);
    await bobPage.getByText("only its owner can edit it").waitFor();
    expect(await bobPage.getByRole("button", { name: "Save" }).count()).toBe(0);
    expect(await bobPage.getByRole("textbox").count()).toBe(0);
    await noServerPath();

    // The sanitize made public: its summary (rulesets, Suricata) reaches Bob without a path of the server.
    expect((await call(page, "PATCH", `/api/jobs/${job.sanitize.id}`, { public: true })).status).toBe(200);
    await bobPage.goto(details(app, job.sanitize.id));
    await bobPage.getByRole("heading", { name: "Run summary", exact: true }).waitFor();
    await bobPage.getByRole("img", { name: /^Lineage of “Log4Shell sanitized”/ }).waitFor();
    await noServerPath();
    expect((await call(page, "PATCH", `/api/jobs/${job.sanitize.id}`, { public: false })).status).toBe(200);

    // Bob's own copy of the merge: Alice's files are left for him to choose.
    await bobPage.goto(details(app, job.merge.id));
    await bobPage.getByRole("link", { name: "Run again with changes" }).click();
    const notices = bobPage.getByRole("region", { name: "Run again" }).getByRole("status");
    await notices.waitFor();
    expect((await notices.getByRole("listitem").allTextContents()).sort()).toEqual([
      "attacks.pcap (attacks) is alice's file, which only they can use: choose a file of yours in its place.",
      "wikipedia-browse.pcap (background) is alice's file, which only they can use: choose a file of yours in its place.",
    ]);
    expect(await bobPage.getByTestId("picked-file").count()).toBe(0);
    await noServerPath();
  });

  it("another user runs a public job again from its public source and owns the new job", async () => {
    await bobPage.goto(details(app, job.label.id));
    await bobPage.getByRole("link", { name: "Run again with changes" }).click();
    await bobPage.getByTestId("picked-file").filter({ hasText: "Wikipedia with Log4Shell / merged.pcap" }).waitFor();
    await bobPage.getByRole("button", { name: "Next" }).click();
    await bobPage.getByText("Optional: this capture is an aggregation job's output").waitFor();
    await bobPage.getByRole("button", { name: "Create job" }).click();
    await bobPage.waitForURL(`${app.url}/ui/dataSets`);
    const [copy] = (await call(bobPage, "GET", "/api/jobs")).body.jobs;
    expect(copy).toMatchObject({ title: "Labels of the mix (again)", isOwner: true, public: false });
    await bobPage.goto(details(app, copy.id));
    const graph = bobPage.getByRole("img", { name: /^Lineage of “Labels of the mix \(again\)”/ });
    await graph.waitFor();
    expect(await graph.locator(".lineage-node").count()).toBe(2);
    // Alice sees Bob's private job nowhere in her chain.
    const hers = (await call(page, "GET", `/api/jobs/${job.merge.id}/lineage`)).body;
    expect(hers.nodes.map((n: Json) => n.id)).not.toContain(copy.id);
  });
});

// The web app in real Chromium against `tracemill serve`: accounts, every capability's wizard with real captures,
// live progress, downloads, sharing, a second user's read-only view, sign-out; a screenshot of every screen.
import fs from "node:fs";
import path from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../apps/cli/test/run-cli.js";
import { fixturePath as fixture } from "../test/helpers/fixtures.js";
import { screenshot } from "./browser.js";
import { jobs } from "./capability-jobs.js";
import { card, closeApp, createJob, finished, openApp, openWindow, register, signIn, upload } from "./ui-helpers.js";

const alice = { userName: "alice", email: "alice@example.org", password: "alice-password" };
const bob = { userName: "bob", email: "bob@example.org", password: "bob-password-1" };

describe("web app", () => {
  let app: ServedApp;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => screenshot(page, name);

  beforeAll(async () => {
    ({ app, browser, page } = await openApp({ acceptDownloads: true, cards: true }));
  });
  afterAll(() => closeApp(app, browser));

  it("shows the public screens and guards the others", async () => {
    await page.goto(`${app.url}/`);
    await page.getByRole("button", { name: "See more" }).click();
    await shot("home");
    for (const [route, name] of [
      ["/ui/resources/about", "about"],
      ["/ui/resources/usage", "usage"],
      ["/ui/resources/capabilities", "capabilities"],
    ]) {
      await page.goto(`${app.url}${route}`);
      await page.getByRole("heading", { level: 1 }).waitFor();
      await shot(name);
    }
    await page.goto(`${app.url}/ui/dataSets`);
    await page.waitForURL(/\/ui\/login\?next=%2Fui%2FdataSets$/);
    await shot("login");
    await page.goto(`${app.url}/no/such/page`);
    expect(await page.getByRole("heading", { level: 1 }).textContent()).toBe("Tracemill");
  });

  it("registers, rejects bad input with the exact messages, and signs in back to the asked page", async () => {
    await page.goto(`${app.url}/ui/register`);
    await page.getByLabel("Password", { exact: true }).fill("short");
    await page.getByLabel("Repeat password").fill("different");
    await page.getByRole("button", { name: "Sign up" }).click();
    for (const message of ["User is required", "Email is required", "Password must be at least 8 characters"])
      await page.getByText(message, { exact: true }).first().waitFor();
    await shot("register-validation");
    await register(page, app.url, alice);
    await page.goto(`${app.url}/ui/login`);
    await signIn(page, { email: alice.email, password: "wrong-password" });
    await page.getByRole("alert").first().waitFor();
    await shot("login-error");
    await page.goto(`${app.url}/ui/profile`);
    await page.waitForURL(/\/ui\/login\?next=/);
    await signIn(page, alice);
    await page.waitForURL(`${app.url}/ui/profile`);
    await page.getByText(alice.email).waitFor();
    await shot("profile");
  });

  it("checks a file's content before uploading it", async () => {
    await page.goto(`${app.url}/ui/extract`);
    await page.getByLabel("Capture: choose a file").setInputFiles({
      name: "not-a-capture.pcap",
      mimeType: "application/octet-stream",
      buffer: Buffer.from("this is plain text, not packets"),
    });
    await page.getByText(/does not look like a pcap/).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByText("Title is required").waitFor();
    await shot("extract-bad-file");
  });

  it("creates one job of each kind from real captures and follows them to the end", async () => {
    for (const job of jobs) {
      const shootStep =
        job.title === jobs[0].title || job.capability !== "extract"
          ? (step: string) =>
              shot(`create-${job.capability}${job.title.startsWith("Multi") ? "-multiclass" : ""}-${step}`)
          : undefined;
      await createJob(page, app.url, job.route, job, job.steps, shootStep);
    }
    await shot("my-jobs-running");
    for (const job of jobs) {
      expect(await finished(page, job.title), job.title).toBe(job.outcome ?? "succeeded");
    }
    await shot("my-jobs");
  });

  it("keeps each uploaded file once: Profile lists it with the jobs that read it; an unused one can be deleted", async () => {
    // Seven wizards picked wikipedia-browse.pcap five times and log4shell-exploit.pcap four times (once as both of a
    // job's inputs): the server holds each once, and the wizards uploaded nothing before their Create.
    const stored = () => fs.readdirSync(path.join(app.dataDir, "files")).length;
    expect(stored()).toBe(3);
    await page.goto(`${app.url}/ui/extract`);
    await page.getByLabel("Title").fill("Abandoned");
    await upload(page, "Capture", "dns53.pcap");
    await page.goto(`${app.url}/ui/profile`);
    const row = (name: string) => page.getByRole("row", { name: new RegExp(name.replace(".", "\\.")) });
    await row("wikipedia-browse.pcap").waitFor();
    expect(await page.getByRole("row").count()).toBe(4);
    expect(await row("wikipedia-browse.pcap").getByRole("cell").nth(4).textContent()).toMatch(/^Used by 5 jobs: /);
    expect(await row("log4shell-exploit.pcap").getByRole("cell").nth(4).textContent()).toMatch(/^Used by 3 jobs: /);
    expect(await row("pyidstools_merged.u2").getByRole("link").allTextContents()).toEqual(["Multi-class labels"]);
    expect(await page.getByRole("button", { name: /^Delete / }).count()).toBe(0);
    expect(stored()).toBe(3);

    // An upload no job reads (here sent straight to the API) is offered for deletion, and goes with its bytes.
    const unused = await page.request.post(`${app.url}/api/files`, {
      multipart: {
        file: {
          name: "dns53.pcap",
          mimeType: "application/octet-stream",
          buffer: fs.readFileSync(fixture("dns53.pcap")),
        },
      },
    });
    expect(unused.status()).toBe(201);
    await page.reload();
    await row("dns53.pcap").getByText("Unused").waitFor();
    await shot("profile-uploads");
    await row("dns53.pcap").getByRole("button", { name: "Delete dns53.pcap" }).click();
    await page.getByRole("button", { name: "Yes, delete" }).click();
    await page.getByText("Deleted dns53.pcap.").waitFor();
    await row("dns53.pcap").waitFor({ state: "detached" });
    expect(stored()).toBe(3);
  });

  it("chains a job on an earlier job's output instead of an upload", async () => {
    await page.goto(`${app.url}/ui/extract/labeling`);
    await page.getByLabel("Title").fill("Labels of the mix");
    await page
      .getByLabel("Or use an output of an earlier job")
      .selectOption({ label: "Wikipedia with Log4Shell / merged.pcap" });
    await page.getByTestId("picked-file").filter({ hasText: "merged.pcap" }).waitFor();
    await page.getByRole("button", { name: "Next" }).click();
    // No attack capture: the merge's provenance labels every packet.
    await page.getByText("Optional: this capture is an aggregation job's output").waitFor();
    await page.getByRole("button", { name: "Create job" }).click();
    await page.waitForURL(`${app.url}/ui/dataSets`);
    expect(await finished(page, "Labels of the mix")).toBe("succeeded");
    await card(page, "Labels of the mix").getByRole("link", { name: "Details" }).click();
    // The Inputs table's row (role, then the job and file it came from); the run summary names merged.pcap too.
    const input = page.getByRole("row", { name: /^capture\b.*merged\.pcap/ });
    await input.waitFor();
    // The run summary's sections are folded: "input" opened, its name is there.
    await page
      .locator("details.summary-section > summary")
      .filter({ hasText: /^input \(/ })
      .click();
    expect(await page.getByRole("row", { name: /^input\.name merged\.pcap$/ }).count()).toBe(1);
    const labels = page.getByRole("img", { name: "Sessions per label" });
    await labels.waitFor();
    expect(await labels.textContent()).toMatch(/0 normal.*1 attack|1 attack.*0 normal/);
    await shot("details-labels-mix");

    await page.goto(`${app.url}/ui/extract/labeling`);
    await page.getByLabel("Title").fill("Log4Shell classes");
    await upload(page, "Capture to label", "log4shell-exploit.pcap");
    await page.getByRole("button", { name: "Next" }).click();
    await page.getByLabel(/^Multi-class/).check();
    const alertsPicker = page.locator("fieldset", { hasText: "Alerts (unified2 or EVE file)" });
    const choices = alertsPicker.getByLabel("Or use an output of an earlier job");
    expect(await choices.locator("option").allTextContents()).not.toContain("Log4Shell sanitized / summary.json");
    await choices.selectOption({ label: "Log4Shell sanitized / alerts.u2" });
    await page.getByRole("button", { name: "Create job" }).click();
    await page.waitForURL(`${app.url}/ui/dataSets`);
    expect(await finished(page, "Log4Shell classes")).toBe("succeeded");
    await card(page, "Log4Shell classes").getByRole("link", { name: "Details" }).click();
    const classes = page.getByRole("img", { name: "Sessions per class" });
    await classes.waitFor();
    await shot("details-classes");
    await page.getByRole("heading", { name: "Charts" }).scrollIntoViewIfNeeded();
    await screenshot(page, "details-classes-charts", false);
  });

  it("downloads outputs and shows a job's details", async () => {
    await page.goto(`${app.url}/ui/dataSets`);
    const jobCard = card(page, jobs[0].title);
    const links = jobCard.locator(".outputs li > a:not([href$='outputs.zip'])");
    await links.first().waitFor();
    const names: string[] = [];
    for (let i = 0; i < (await links.count()); i++) {
      const [download] = await Promise.all([page.waitForEvent("download"), links.nth(i).click()]);
      const text = fs.readFileSync(await download.path(), "utf8");
      names.push(download.suggestedFilename());
      if (download.suggestedFilename().endsWith(".csv")) expect(text.split("\n")[0].split(",")).toHaveLength(50);
      else expect(JSON.parse(text)).toBeTypeOf("object");
    }
    expect(names.some((n) => n.endsWith("features.csv"))).toBe(true);
    for (const job of jobs.slice(0, -1)) {
      const [zip] = await Promise.all([
        page.waitForEvent("download"),
        card(page, job.title).getByRole("link", { name: "Download all (zip)" }).click(),
      ]);
      expect(
        fs
          .readFileSync(await zip.path())
          .subarray(0, 2)
          .toString(),
        job.title,
      ).toBe("PK");
    }
    await jobCard.getByRole("link", { name: "Details" }).click();
    await page.getByRole("heading", { name: "Inputs" }).waitFor();
    expect(await page.locator("td.hash").first().textContent()).toMatch(/^[0-9a-f]{64}$/);
    await page.getByRole("img", { name: "Sessions per protocol" }).waitFor();
    await page.getByRole("region", { name: "Preview of features.csv" }).waitFor();
    await shot("details");

    await page.goto(`${app.url}/ui/dataSets`);
    await card(page, "Log4Shell binary labels").getByRole("link", { name: "Details" }).click();
    const labels = page.getByRole("img", { name: "Sessions per label" });
    await labels.waitFor();
    expect(await labels.textContent()).toContain("1 attack");
    await shot("details-labels");

    await page.goto(`${app.url}/ui/dataSets`);
    await card(page, "Wikipedia images").getByRole("link", { name: "Details" }).click();
    const image = page.getByRole("img", { name: /Sessions drawn in grayscale/ }).first();
    await image.waitFor();
    await page.waitForFunction(() => [...document.images].some((i) => i.complete && i.naturalWidth > 0));
    expect(await image.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBe(280);
    await shot("details-images");

    await page.goto(`${app.url}/ui/dataSets`);
    await card(page, "Log4Shell sanitized").getByRole("link", { name: "Details" }).click();
    const alerts = page.getByRole("img", { name: "Alerts per signature" });
    await alerts.waitFor();
    expect(await alerts.locator("rect").count()).toBeGreaterThan(0);
    await shot("details-sanitize");
  });

  it("makes a job public; a second user sees it under Shared Jobs and cannot change it", async () => {
    const shared = jobs[0].title;
    await page.goto(`${app.url}/ui/dataSets`);
    await card(page, shared).getByRole("link", { name: "Edit" }).click();
    await page.waitForURL(/\/ui\/update\?id=/);
    await page.getByLabel(/^Public/).check();
    await shot("update");
    await page.getByRole("button", { name: "Save" }).click();
    await page.waitForURL(`${app.url}/ui/dataSets`);
    await card(page, shared).getByText("public").waitFor();

    const bobPage = await openWindow(browser, app.url, { cards: true, user: bob });
    await bobPage.getByRole("link", { name: "Shared Jobs" }).click();
    const seen = bobPage.locator("article.job-card", { hasText: shared });
    await seen.waitFor();
    expect(await bobPage.locator("article.job-card").count()).toBe(1);
    expect(await seen.getByRole("link", { name: "Edit" }).count()).toBe(0);
    expect(await seen.getByRole("button", { name: "Delete" }).count()).toBe(0);
    await screenshot(bobPage, "shared-jobs");
    const id = new URL(
      `${app.url}${await seen.getByRole("link", { name: "Details" }).getAttribute("href")}`,
    ).searchParams.get("id");
    const attempt = await bobPage.evaluate(async (jobId) => {
      const patch = await fetch(`/api/jobs/${jobId}`, {
        method: "PATCH",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ title: "taken over" }),
      });
      const del = await fetch(`/api/jobs/${jobId}`, { method: "DELETE" });
      return [patch.status, del.status];
    }, id);
    expect(attempt[0]).toBeGreaterThanOrEqual(400);
    expect(attempt[1]).toBeGreaterThanOrEqual(400);
    await bobPage.context().close();
  });

  it("deletes a job after confirmation, shows the resources in both themes, and signs out", async () => {
    await page.goto(`${app.url}/ui/dataSets`);
    const victim = card(page, jobs[jobs.length - 1].title);
    await victim.getByRole("button", { name: "Delete" }).click();
    await shot("delete-confirm");
    await victim.getByRole("button", { name: "Yes, delete" }).click();
    await victim.waitFor({ state: "detached" });

    await page.goto(`${app.url}/ui/resources/feature/set`);
    const tracemill = page.getByRole("table", { name: "tracemill", exact: true });
    await tracemill.locator("tbody tr").nth(43).waitFor();
    expect(await tracemill.locator("tbody tr").count()).toBe(44);
    expect(await page.getByRole("table", { name: "Session key" }).locator("tbody tr").count()).toBe(6);
    await shot("feature-set");
    await page.goto(`${app.url}/ui/resources/file/formats`);
    await page.getByRole("heading", { name: "File Formats" }).waitFor();
    await shot("file-formats");
    await page.getByRole("button", { name: /Dark mode/ }).click();
    await page.reload();
    expect(await page.evaluate(() => document.documentElement.dataset.theme)).toBe("dark");
    await shot("file-formats-dark");
    await page.goto(`${app.url}/ui/merge`);
    await page.getByLabel("Title").waitFor();
    await shot("create-merge-dark");
    await page.goto(`${app.url}/ui/dataSets`);
    await shot("my-jobs-dark");
    await page.getByRole("button", { name: /Light mode/ }).click();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Login" }).waitFor();
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    expect(await page.getByRole("link", { name: "Download" }).count()).toBe(0);
    await page.goto(`${app.url}/ui/dataSets`);
    await page.waitForURL(/\/ui\/login\?next=/);
  });
});

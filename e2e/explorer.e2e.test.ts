// The feature explorer in real Chromium against `tracemill serve` and the real engine: a small capture extracted
// through the API, its details opened, a column found by typing and picked, the log scale chosen; the histogram, its
// counts and statistics are the server's over every session. A screenshot goes to e2e/artifacts/.
import fs from "node:fs";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedApp, serve } from "../apps/cli/test/run-cli.js";
import { fixturePath } from "../test/helpers/fixtures.js";
import { launchBrowser, screenshot } from "./browser.js";
import { register, signIn } from "./ui-helpers.js";

const user = { userName: "erin", email: "erin@example.org", password: "erin-password" };

// biome-ignore lint/suspicious/noExplicitAny: the test reads JSON answers loosely
type Json = any;

/** A call to the API from the page, with its session cookie (a same-origin request, as the web app makes). */
function call(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> {
  return page.evaluate(
    async ({ method, url, body }) => {
      const response = await fetch(url, {
        method,
        headers: body === undefined ? {} : { "Content-Type": "application/json" },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : undefined };
    },
    { method, url, body },
  );
}

describe("feature explorer", () => {
  let app: ServedApp;
  let browser: Browser;
  let page: Page;
  let jobId: string;

  beforeAll(async () => {
    app = await serve();
    browser = await launchBrowser();
    page = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await register(page, app.url, user);
    await signIn(page, user);
    await page.waitForURL(`${app.url}/ui/dataSets`);
    const bytes = [...fs.readFileSync(fixturePath("stratosphere-malicious-7.pcap"))];
    const fileId = await page.evaluate(async (bytes) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)]), "stratosphere-malicious-7.pcap");
      return (await (await fetch("/api/files", { method: "POST", body: form })).json()).id as string;
    }, bytes);
    const created = await call(page, "POST", "/api/jobs", {
      title: "Explored sessions",
      capability: "extract",
      params: { features: ["tracemill", "cic"] },
      inputs: { capture: { fileId } },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    jobId = created.body.id;
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
      const { body } = await call(page, "GET", `/api/jobs/${jobId}`);
      if (body.status === "succeeded") return;
      expect(["queued", "running"]).toContain(body.status);
      await page.waitForTimeout(100);
    }
    throw new Error("the extraction did not finish");
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("draws a picked column over every session, on a log scale, with its statistics", async () => {
    await page.goto(`${app.url}/ui/details?id=${jobId}`);
    const explorer = page.getByRole("region", { name: "Explore features" });
    await explorer.getByText("features.csv: 312 rows, 126 columns.").waitFor();
    // Opened on the mean packet length, every session counted.
    await explorer.getByRole("img", { name: "mean_flowpktl: 312 values in 40 bins, linear scale" }).waitFor();

    await explorer.getByRole("searchbox", { name: "Find a column" }).fill("fwd packet length max");
    const list = explorer.getByRole("listbox", { name: "Column" });
    expect(await list.getByRole("option").allTextContents()).toEqual(["Fwd Packet Length Max (number)"]);
    await list.selectOption("Fwd Packet Length Max");
    await explorer.getByRole("radio", { name: "Log" }).check();
    const histogram = explorer.getByRole("img", { name: "Fwd Packet Length Max: 312 values in 40 bins, log scale" });
    await histogram.waitFor();
    expect(await histogram.locator("rect").count()).toBeGreaterThan(0);

    // The statistics are the server's reading of the whole CSV: checked here against the CSV read by the test.
    const csv = await (
      await fetch(`${app.url}/api/jobs/${jobId}/outputs/features.csv`, {
        headers: { Cookie: (await page.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ") },
      })
    ).text();
    const [header, ...rows] = csv.trimEnd().split("\n");
    const at = header.split(",").indexOf("Fwd Packet Length Max");
    const values = rows.map((row) => Number(row.split(",")[at]));
    const max = Math.max(...values).toLocaleString("en-US");
    const stats = explorer.getByRole("table", { name: "Statistics of Fwd Packet Length Max" });
    await stats.getByRole("row", { name: `Max ${max}` }).waitFor();
    await stats.getByRole("row", { name: "Values 312" }).waitFor();
    await explorer.scrollIntoViewIfNeeded();
    await screenshot(page, "explorer");
  });
});

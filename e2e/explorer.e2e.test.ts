// The feature explorer in real Chromium against `tracemill serve` and the real engine: a small capture extracted
// through the API, its details opened, a column found by typing and picked, the log scale chosen; the histogram, its
// counts and statistics are the server's over every session. A screenshot goes to e2e/artifacts/.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../apps/cli/test/run-cli.js";
import { screenshot } from "./browser.js";
import { closeApp, openApp, runJob, uploadFixture } from "./ui-helpers.js";

const user = { userName: "erin", email: "erin@example.org", password: "erin-password" };

describe("feature explorer", () => {
  let app: ServedApp;
  let browser: Browser;
  let page: Page;
  let jobId: string;

  beforeAll(async () => {
    ({ app, browser, page } = await openApp({ viewport: { width: 1366, height: 900 }, user }));
    const fileId = await uploadFixture(page, "stratosphere-malicious-7.pcap");
    const job = await runJob(page, {
      title: "Explored sessions",
      capability: "extract",
      params: { features: ["tracemill", "cic"] },
      inputs: { capture: { fileId } },
    });
    expect(job.status).toBe("succeeded");
    jobId = job.id;
  });
  afterAll(() => closeApp(app, browser));

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

// The web app's shell in a real browser against `tracemill serve`.
import fs from "node:fs";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedApp, serve } from "../apps/cli/test/run-cli.js";
import { launchBrowser, screenshot } from "./browser.js";

describe("web shell", () => {
  let app: ServedApp;
  let browser: Browser;
  beforeAll(async () => {
    app = await serve();
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("renders header, menu and footer at /", async () => {
    const page = await browser.newPage();
    await page.goto(`${app.url}/`);
    await expect(page.getByRole("banner").textContent()).resolves.toContain("Tracemill");
    expect(await page.getByRole("navigation", { name: "Main menu" }).count()).toBe(1);
    expect(await page.getByRole("contentinfo").count()).toBe(1);
    const file = await screenshot(page, "home");
    expect(fs.statSync(file).size).toBeGreaterThan(1000);
    await page.close();
  });
});

// The finish of the web app in real Chromium against `tracemill serve` and the real build: page titles, the collapsed
// menu's icons, the Feature Set tables' layout on a narrow window, and the bundle sent compressed and cached.
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import zlib from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../apps/cli/test/run-cli.js";
import { screenshot } from "./browser.js";
import { closeApp, openApp } from "./ui-helpers.js";

const webDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../apps/web/dist");

/** A GET whose body is left as sent (fetch would undo the content encoding). */
function rawGet(url: string, headers: Record<string, string>) {
  return new Promise<{ headers: http.IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
    http
      .get(url, { headers }, (response) => {
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () => resolve({ headers: response.headers, body: Buffer.concat(chunks) }));
      })
      .on("error", reject);
  });
}

describe("web polish", () => {
  let app: ServedApp;
  let browser: Browser;
  let page: Page;
  const user = { userName: "polish", email: "polish@example.org", password: "polish-password" };

  beforeAll(async () => {
    ({ app, browser, page } = await openApp({ viewport: { width: 1280, height: 800 }, user }));
  });
  afterAll(() => closeApp(app, browser));

  it("sends the built bundle's script brotli-compressed and immutable, index.html revalidated", async () => {
    const index = await rawGet(`${app.url}/`, { "Accept-Encoding": "br, gzip" });
    expect(index.headers["cache-control"]).toBe("no-cache");
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(index.body.toString())?.[1];
    expect(script).toBeDefined();
    const answer = await rawGet(`${app.url}${script}`, { "Accept-Encoding": "br, gzip" });
    expect(answer.headers["content-encoding"]).toBe("br");
    expect(answer.headers["cache-control"]).toBe("public, max-age=31536000, immutable");
    const built = fs.readFileSync(path.join(webDist, script as string));
    expect(zlib.brotliDecompressSync(answer.body).equals(built)).toBe(true);
    expect(answer.body.length).toBeLessThan(built.length / 2);
  });

  it("titles each screen, a job's details by its title", async () => {
    await page
      .waitForFunction((title) => document.title === title, "My Jobs — Tracemill", { timeout: 5000 })
      .catch(() => {});
    expect(await page.title()).toBe("My Jobs — Tracemill");
    await page.getByRole("navigation", { name: "Main menu" }).getByRole("link", { name: "Feature Extraction" }).click();
    await page.waitForURL(`${app.url}/ui/extract`);
    // The title is set once the screen has rendered, a moment after the address changes.
    await page
      .waitForFunction((title) => document.title === title, "Feature Extraction — Tracemill", { timeout: 5000 })
      .catch(() => {});
    expect(await page.title()).toBe("Feature Extraction — Tracemill");
  });

  it("keeps every menu entry as a visible icon when the menu is collapsed", async () => {
    await page.goto(`${app.url}/ui/dataSets`);
    await page.getByRole("button", { name: "Collapse menu" }).click();
    const menu = page.getByRole("navigation", { name: "Main menu" });
    const icons = await menu.locator("a svg.menu-icon").evaluateAll((svgs) =>
      svgs.map((svg) => {
        const box = svg.getBoundingClientRect();
        return { width: box.width, height: box.height, visible: getComputedStyle(svg).visibility === "visible" };
      }),
    );
    expect(icons).toHaveLength(17);
    for (const icon of icons) expect(icon).toEqual({ width: 20, height: 20, visible: true });
    // The names are out of sight but still name the links.
    const label = menu.getByText("Shared Jobs");
    expect(await label.evaluate((el) => el.getBoundingClientRect().width)).toBeLessThanOrEqual(1);
    expect(await menu.getByRole("link", { name: "Shared Jobs" }).count()).toBe(1);
    await screenshot(page, "menu-collapsed", false);
    await page.getByRole("button", { name: "Expand menu" }).click();
  });

  it("Feature Set on a narrow window: # cells on one line, no word broken inside, the table scrolls instead", async () => {
    await page.setViewportSize({ width: 640, height: 800 });
    await page.goto(`${app.url}/ui/resources/feature/set`);
    await page.locator("table.feature-columns").nth(1).waitFor();
    const found = await page.evaluate(() => {
      /** The distinct line tops of a cell's text, character by character, and whether a word spans two lines. */
      const lines = (cell: Element) => {
        const tops: number[] = [];
        let brokenWord = false;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const text = node.textContent ?? "";
          let wordTop: number | undefined;
          for (let i = 0; i < text.length; i++) {
            if (/\s/.test(text[i])) {
              wordTop = undefined;
              continue;
            }
            const range = document.createRange();
            range.setStart(node, i);
            range.setEnd(node, i + 1);
            const top = Math.round(range.getBoundingClientRect().top);
            if (!tops.includes(top)) tops.push(top);
            if (wordTop !== undefined && top !== wordTop) brokenWord = true;
            // A line may end after a hyphen ("1970-" / "01-01"), as in any text.
            wordTop = text[i] === "-" ? undefined : top;
          }
        }
        return { lines: tops.length, brokenWord };
      };
      const cells = [...document.querySelectorAll("table.feature-columns td, table.feature-columns th")];
      const index = [...document.querySelectorAll("table.feature-columns td.index")];
      return {
        cells: cells.length,
        twoDigitIndexes: index.filter((cell) => (cell.textContent ?? "").length >= 2).length,
        indexOnManyLines: index.filter((cell) => lines(cell).lines !== 1).map((cell) => cell.textContent),
        headersOnManyLines: [...document.querySelectorAll("table.feature-columns th")]
          .filter((cell) => lines(cell).lines !== 1)
          .map((cell) => cell.textContent),
        brokenWords: cells.filter((cell) => lines(cell).brokenWord).map((cell) => cell.textContent),
        pageScrollsSideways: document.documentElement.scrollWidth > window.innerWidth,
      };
    });
    expect(found.cells).toBeGreaterThan(100);
    expect(found.twoDigitIndexes).toBeGreaterThan(10);
    expect(found.indexOnManyLines).toEqual([]);
    expect(found.headersOnManyLines).toEqual([]);
    expect(found.brokenWords).toEqual([]);
    expect(found.pageScrollsSideways).toBe(false);
    await screenshot(page, "feature-set-narrow");
    await page.setViewportSize({ width: 1280, height: 800 });
  });
});

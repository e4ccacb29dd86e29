// Launches Debian's Chromium headless through playwright-core, and saves screenshots as test artifacts.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

export const artifactsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "artifacts");

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  const found = candidates.find((candidate) => candidate && fs.existsSync(candidate));
  if (!found)
    throw new Error("Chromium not found: install Debian's chromium package (make test does) or set CHROMIUM_PATH");
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}

/** Saves the whole page, or only what the window shows when `fullPage` is false (for README-sized pictures). */
export async function screenshot(page: Page, name: string, fullPage = true): Promise<string> {
  fs.mkdirSync(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage });
  return file;
}

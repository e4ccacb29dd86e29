// Steps the browser tests repeat: the server and a signed-in window started, sign-up and sign-in through the forms,
// creating a job through its wizard or through the API from the page, waiting for it.
import fs from "node:fs";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { expect } from "vitest";
import { type ServedApp, serve } from "../apps/cli/test/run-cli.js";
import { fixturePath as fixture } from "../test/helpers/fixtures.js";
import { launchBrowser } from "./browser.js";

type User = { userName: string; email: string; password: string };

/** How a window opens: its size (1366×800 by default), the job lists as cards, CSP violations recorded, a user. */
export interface WindowOptions {
  viewport?: { width: number; height: number };
  acceptDownloads?: boolean;
  cards?: boolean;
  recordViolations?: boolean;
  /** Signed up and in through the forms, the window left on My Jobs. */
  user?: User;
}

/** A new window of `browser` with cookies of its own, opened as `options` say. */
export async function openWindow(browser: Browser, base: string, options: WindowOptions = {}): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? { width: 1366, height: 800 },
    acceptDownloads: options.acceptDownloads,
  });
  if (options.cards) await preferCards(context);
  if (options.recordViolations) await recordViolations(context);
  const page = await context.newPage();
  if (options.user) {
    await register(page, base, options.user);
    await signIn(page, options.user);
    await page.waitForURL(`${base}/ui/dataSets`);
    // The address changes before the screen renders: wait for the list, so a test starts from a drawn My Jobs.
    await page.getByRole("heading", { name: "My Jobs", level: 1 }).waitFor();
  }
  return page;
}

export interface OpenedApp {
  app: ServedApp;
  browser: Browser;
  page: Page;
}

/**
 * Starts `tracemill serve` (with `serveArgs`) and Chromium, and opens a window; what started is stopped again when a
 * later step fails, so that a failed set-up leaves no server or browser behind. Pair it with `closeApp`.
 */
export async function openApp(options: WindowOptions & { serveArgs?: string[] } = {}): Promise<OpenedApp> {
  const app = await serve(options.serveArgs);
  let browser: Browser | undefined;
  try {
    browser = await launchBrowser();
    const page = await openWindow(browser, app.url, options);
    return { app, browser, page };
  } catch (error) {
    await closeApp(app, browser);
    throw error;
  }
}

export async function closeApp(app: ServedApp | undefined, browser: Browser | undefined) {
  await browser?.close();
  await app?.stop();
}

/** Runs before the page's own scripts, outside the policy: keeps every violation of the Content-Security-Policy. */
export const recordViolations = (context: BrowserContext) =>
  context.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { violations: string[] }).violations = seen;
    document.addEventListener("securitypolicyviolation", (e) => seen.push(`${e.violatedDirective} ${e.blockedURI}`));
  });

/** The violations recorded on the page so far ("directive blocked-URI" each). */
export const violations = (page: Page) =>
  page.evaluate(() => (window as unknown as { violations: string[] }).violations);

// biome-ignore lint/suspicious/noExplicitAny: the tests read JSON answers loosely
export type Json = any;

/** A call to the API from the page, with its session cookie (a same-origin request, as the web app makes). */
export function call(page: Page, method: string, url: string, body?: unknown): Promise<{ status: number; body: Json }> {
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

/** Uploads a fixture (by its name under test/fixtures) to POST /api/files from the page; returns the id answered. */
export async function uploadFixture(page: Page, name: string): Promise<string> {
  const bytes = [...fs.readFileSync(fixture(name))];
  return page.evaluate(
    async ({ name, bytes }) => {
      const form = new FormData();
      form.append("file", new Blob([new Uint8Array(bytes)]), name);
      return (await (await fetch("/api/files", { method: "POST", body: form })).json()).id as string;
    },
    { name, bytes },
  );
}

/** Asks for the job until it has ended (succeeded, failed or cancelled); returns it as then answered. */
export async function ended(page: Page, id: string): Promise<Json> {
  for (const deadline = Date.now() + 60_000; Date.now() < deadline; ) {
    const { body } = await call(page, "GET", `/api/jobs/${id}`);
    if (["succeeded", "failed", "cancelled"].includes(body.status)) return body;
    await page.waitForTimeout(100);
  }
  throw new Error(`job ${id} did not end`);
}

/** Creates a job through the API from the page (201 expected) and waits until it has ended; returns it. */
export async function runJob(page: Page, request: Record<string, unknown>): Promise<Json> {
  const created = await call(page, "POST", "/api/jobs", request);
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return ended(page, created.body.id);
}

export async function register(page: Page, base: string, user: User) {
  await page.goto(`${base}/ui/register`);
  await page.getByLabel("User name").fill(user.userName);
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByLabel("Repeat password").fill(user.password);
  await page.getByRole("button", { name: "Sign up" }).click();
  await page.waitForURL(`${base}/ui/login`);
}

export async function signIn(page: Page, user: { email: string; password: string }) {
  await page.getByLabel("Email").fill(user.email);
  await page.getByLabel("Password", { exact: true }).fill(user.password);
  await page.getByRole("button", { name: "Signin" }).click();
}

/** One step of a wizard: fill it, then press Next (or Create job on the last step). */
export type WizardStep = (page: Page) => Promise<void>;

export async function upload(page: Page, label: string, file: string) {
  await page.getByLabel(`${label}: choose a file`).setInputFiles(fixture(file));
  await page.getByTestId("picked-file").filter({ hasText: file }).waitFor();
}

export async function createJob(
  page: Page,
  base: string,
  route: string,
  job: { title: string; mainLabel: string; file: string },
  steps: WizardStep[],
  shoot?: (name: string) => Promise<unknown>,
) {
  await page.goto(`${base}${route}`);
  await page.getByLabel("Title").fill(job.title);
  await page.getByLabel("Description").fill(`${job.title}, created by the browser test`);
  await upload(page, job.mainLabel, job.file);
  await shoot?.("step-1");
  await page.getByRole("button", { name: "Next" }).click();
  for (const [i, step] of steps.entries()) {
    await step(page);
    await shoot?.(`step-${i + 2}`);
    const last = i === steps.length - 1;
    await page.getByRole("button", { name: last ? "Create job" : "Next" }).click();
  }
  await page.waitForURL(`${base}/ui/dataSets`);
}

/**
 * These tests follow each job on its card: the job lists open as cards (the web app's "View" choice, kept in
 * localStorage) rather than as the table, which apps/web/src/jobs/job-table.test.tsx covers.
 */
export const preferCards = (context: BrowserContext) =>
  context.addInitScript(() => localStorage.setItem("tracemill.jobs-view", "cards"));

export const card = (page: Page, title: string) => page.locator("article.job-card", { hasText: title });

/** Waits until the job's card shows a finished status ("warning": succeeded, with a suspect result); returns it. */
export async function finished(page: Page, title: string, timeout = 60_000): Promise<string> {
  const done = page.locator(
    "article.job-card:is(.status-succeeded, .status-warning, .status-failed, .status-cancelled)",
    {
      hasText: title,
    },
  );
  await done.waitFor({ timeout });
  const className = (await done.getAttribute("class")) ?? "";
  return /status-(\w+)/.exec(className)?.[1] ?? "unknown";
}

// Steps the browser tests repeat: sign-up and sign-in through the forms, creating a job through its wizard, waiting for it.
import type { BrowserContext, Page } from "playwright-core";
import { fixturePath as fixture } from "../test/helpers/fixtures.js";

export async function register(page: Page, base: string, user: { userName: string; email: string; password: string }) {
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

// The web app under the server's Content-Security-Policy in real Chromium: no screen trips it (no inline script or
// style, no eval), and the images job's gallery (PNGs from the server, drawn pixelated) still shows.
import type { Browser, BrowserContext } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ServedApp, serve } from "../apps/cli/test/run-cli.js";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../packages/core/src/testing/index.js";
import { launchBrowser } from "./browser.js";
import { recordViolations, violations } from "./ui-helpers.js";

/** Twenty short TCP sessions: enough for an images job's previews. */
function capture(): Buffer {
  const packets = [];
  for (let i = 0; i < 20; i++) {
    for (let j = 0; j < 3; j++) {
      const frame = ethernet(
        ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 40000 + i, dstPort: 80, payload: 10 + j })),
      );
      packets.push(capturedPacket(frame, { linkType: 1, tsSec: 1_700_000_000 + i, tsNsec: j * 1000 }));
    }
  }
  return Buffer.from(pcapFile(packets));
}

describe("Content-Security-Policy", () => {
  let app: ServedApp;
  let browser: Browser;
  let context: BrowserContext;
  const jobIds: string[] = [];

  beforeAll(async () => {
    app = await serve();
    const call = (path: string, body: unknown, cookie = "") =>
      fetch(`${app.url}${path}`, {
        method: "POST",
        headers: { "Content-Type": "application/json", ...(cookie && { Cookie: cookie }) },
        body: JSON.stringify(body),
      });
    const user = { userName: "csp", email: "csp@example.org", password: "csp-password" };
    await call("/api/auth/register", { ...user, Renewpassword: user.password });
    const login = await call("/api/auth/login", user);
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array(capture())]), "sessions.pcap");
    const file = await (
      await fetch(`${app.url}/api/files`, { method: "POST", headers: { Cookie: cookie }, body: form })
    ).json();
    for (const capability of ["images", "extract"]) {
      const job = await (
        await call("/api/jobs", { title: capability, capability, inputs: { capture: { fileId: file.id } } }, cookie)
      ).json();
      jobIds.push(job.id);
    }
    for (const id of jobIds) {
      for (;;) {
        const job = await (await fetch(`${app.url}/api/jobs/${id}`, { headers: { Cookie: cookie } })).json();
        if (job.status === "succeeded") break;
        if (job.status === "failed") throw new Error(`job ${id} failed: ${job.error}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
    browser = await launchBrowser();
    context = await browser.newContext();
    const [name, ...value] = cookie.split("=");
    await context.addCookies([{ name, value: value.join("="), url: app.url }]);
    await recordViolations(context);
  });
  afterAll(async () => {
    await browser?.close();
    await app?.stop();
  });

  it("is tripped by no screen, and the image previews still show", async () => {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const screens = [
      "/",
      "/ui/resources/about",
      "/ui/resources/capabilities",
      "/ui/dataSets",
      "/ui/new/images",
      "/ui/dataset",
      "/ui/profile",
      `/ui/details?id=${jobIds[1]}`,
      `/ui/details?id=${jobIds[0]}`,
    ];
    for (const screen of screens) {
      await page.goto(`${app.url}${screen}`);
      await page.getByRole("heading", { level: 1 }).first().waitFor();
      await page.waitForLoadState("networkidle");
      expect(await violations(page), screen).toEqual([]);
    }
    // The last screen, the images job's details: its gallery's thumbnails come from the server and are drawn.
    const previews = page.locator('img[src*="/outputs/images.zip/images/"]');
    await previews.first().waitFor();
    expect(await previews.evaluateAll((images) => images.map((i) => (i as HTMLImageElement).naturalWidth))).toContain(
      280,
    );
    // Zoomed, each pixel row of the image (20 px tall) is level with its session's row of the table beside it.
    await page.getByRole("button", { name: "Sessions drawn in grayscale: images/image-000001.png" }).click();
    const dialog = page.getByRole("dialog", { name: "Image 1: images/image-000001.png" });
    await page.waitForFunction(() => (document.querySelector(".zoom-image") as HTMLImageElement)?.naturalHeight > 0);
    const box = await dialog.locator(".zoom-image").boundingBox();
    expect(box?.height).toBe(16 * 20);
    const top = box?.y ?? Number.NaN;
    const rows = await dialog
      .locator(".zoom-rows tbody tr")
      .evaluateAll((trs) => trs.map((tr) => tr.getBoundingClientRect()));
    expect(rows.map((row) => [row.top - top, row.height])).toEqual(Array.from({ length: 16 }, (_, i) => [20 * i, 20]));
    await page.keyboard.press("Escape");
    await dialog.waitFor({ state: "detached" });
    expect(await violations(page)).toEqual([]);
    expect(errors).toEqual([]);
    await page.close();
  });
});

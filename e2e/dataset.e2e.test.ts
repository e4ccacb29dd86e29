// A dataset job in real Chromium against `tracemill serve`: two captures and an attack capture uploaded in the wizard,
// a schedule pasted as YAML and edited, the split and audit steps, then the dataset page: the card, its charts, the audit table
// and the split files. Screenshots of each step and of the page go to e2e/artifacts/.
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../apps/cli/test/run-cli.js";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../packages/core/src/testing/index.js";
import { screenshot } from "./browser.js";
import { card, closeApp, finished, openApp, violations } from "./ui-helpers.js";

const user = { userName: "dana", email: "dana@example.org", password: "dana-password" };
/** 2017-07-04 12:00 UTC. */
const NOON = Date.UTC(2017, 6, 4, 12, 0) / 1000;

/** `count` three-packet TCP sessions from `client` (ports from `port`) to `server`:`serverPort`, one a second. */
function sessions(client: string, server: string, serverPort: number, port: number, count: number, at: number) {
  const frame = (src: string, dst: string, sport: number, dport: number, flags: number, payload = 0) =>
    ethernet(ipv4({ src, dst }, tcp({ srcPort: sport, dstPort: dport, flags, payload })));
  return Array.from({ length: count }, (_, i) => [
    capturedPacket(frame(client, server, port + i, serverPort, 0x02), { linkType: 1, tsSec: at + i }),
    capturedPacket(frame(server, client, serverPort, port + i, 0x12), { linkType: 1, tsSec: at + i, tsNsec: 1e6 }),
    capturedPacket(frame(client, server, port + i, serverPort, 0x18, 10), { linkType: 1, tsSec: at + i, tsNsec: 2e6 }),
  ]).flat();
}

const pcap = (name: string, packets: ReturnType<typeof sessions>) => ({
  name,
  mimeType: "application/vnd.tcpdump.pcap",
  buffer: Buffer.from(pcapFile(packets.sort((a, b) => a.tsSec - b.tsSec || a.tsNsec - b.tsNsec))),
});

const scan = () => sessions("10.9.9.9", "10.0.1.1", 445, 45_000, 4, NOON + 100);
const captures = {
  monday: pcap("monday.pcap", [
    ...sessions("10.0.0.1", "10.0.1.1", 80, 50_000, 10, NOON),
    ...sessions("172.16.0.1", "192.168.10.50", 21, 40_000, 5, NOON + 1800),
  ]),
  tuesday: pcap("tuesday.pcap", [...sessions("10.0.0.2", "10.0.1.1", 80, 51_000, 10, NOON), ...scan()]),
  scan: pcap("scan.pcap", scan()),
};

describe("dataset wizard and page", () => {
  let app: ServedApp;
  let browser: Browser;
  let page: Page;
  const shot = (name: string) => screenshot(page, name);

  beforeAll(async () => {
    // Every violation of the Content-Security-Policy the pages report is recorded (as content-security-policy.e2e.test.ts).
    ({ app, browser, page } = await openApp({ cards: true, recordViolations: true, user }));
  });
  afterAll(() => closeApp(app, browser));

  const choose = async (label: string, file: { name: string }) => {
    await page.getByLabel(`${label}: choose a file`).setInputFiles(file as Parameters<Page["setInputFiles"]>[1]);
    await page.getByText(file.name, { exact: false }).first().waitFor();
  };

  it("creates a dataset job in the wizard and shows its card", async () => {
    await page.goto(`${app.url}/ui/dataset`);
    await page.getByLabel("Title").fill("Browser week");
    await choose("Capture", captures.monday);
    await choose("Another capture (optional: a dataset of several)", captures.tuesday);
    await shot("create-dataset-step-1");
    await page.getByRole("button", { name: "Next" }).click();

    await choose("Attack capture (optional)", captures.scan);
    await page.getByLabel("class of scan.pcap").fill("PortScan");
    await shot("create-dataset-step-2");
    await page.getByRole("button", { name: "Next" }).click();

    // Pasted as YAML (read by a module loaded then, under the page's Content-Security-Policy), then edited in place.
    await page.getByText("Paste a schedule (YAML or JSON)").click();
    await page
      .getByLabel(/Schedule as YAML or JSON/)
      .fill(
        "timezone: UTC\nwindows:\n  - class: FTP-Patator\n    start: 2017-07-04 12:29\n    end: 2017-07-04 12:30\n" +
          "    attackers: [172.16.0.1]\n    victims: [192.168.10.50]\n    ports: [21]\n",
      );
    await page.getByRole("button", { name: "Use this schedule" }).click();
    await page.getByLabel("Window 1: class").waitFor();
    expect(await page.getByLabel("Time zone of the schedule").inputValue()).toBe("UTC");
    expect(await page.getByLabel("Window 1: attackers").inputValue()).toBe("172.16.0.1");
    // An end before the start is said at once, before Next.
    await page.getByLabel("Window 1: end").fill("2017-07-04 12:00");
    await page.getByText("The end is before the start").waitFor();
    await page.getByLabel("Window 1: end").fill("2017-07-04 12:31");
    expect(await page.getByText("The end is before the start").count()).toBe(0);
    await shot("create-dataset-step-3");
    await page.getByRole("button", { name: "Next" }).click();

    await page.getByLabel("Split method").selectOption("random");
    await page.getByLabel("Split 1: fraction").fill("0.7");
    await page.getByText("The fractions add up to 0.9; they must add up to 1").waitFor();
    await page.getByLabel("Split 2: fraction").fill("0.3");
    await shot("create-dataset-step-4");
    await page.getByRole("button", { name: "Next" }).click();

    await page.getByRole("switch", { name: "Also write each split without the flagged columns" }).check();
    await shot("create-dataset-step-5");
    await page.getByRole("button", { name: "Create job" }).click();
    await page.waitForURL(`${app.url}/ui/dataSets`);
    expect(await finished(page, "Browser week", 120_000)).toMatch(/succeeded|warning/);

    await card(page, "Browser week").getByRole("link", { name: "Details" }).click();
    await page.getByRole("heading", { name: "Dataset card" }).waitFor();
    // 20 benign sessions, 5 in the window, 4 in the attack capture: a bar per class and split.
    const chart = page.getByRole("img", { name: "Sessions per class and split" });
    await chart.waitFor();
    expect(await chart.locator("rect").count()).toBe(3 * 2);
    const classes = page.getByRole("img", { name: "Sessions per class", exact: true });
    expect(await classes.textContent()).toMatch(/benign.*20/);
    expect(await classes.textContent()).toMatch(/FTP-Patator.*5/);
    expect(await classes.textContent()).toMatch(/PortScan.*4/);
    const audit = page.getByRole("table", { name: "Leakage audit" });
    expect(await audit.locator("tbody tr.flagged").count()).toBeGreaterThan(0);
    const splits = page.getByRole("table", { name: "Splits: download each file" });
    expect(await splits.getByRole("link", { name: /(^| )train\.parquet$/ }).getAttribute("href")).toMatch(
      /\/outputs\/train\.parquet$/,
    );
    expect(await splits.getByRole("link", { name: /train\.unflagged\.parquet$/ }).count()).toBe(1);
    await shot("details-dataset");
    expect(await violations(page)).toEqual([]);
    await audit.scrollIntoViewIfNeeded();
    await screenshot(page, "details-dataset-audit", false);
  });
});

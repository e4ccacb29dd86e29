// One job of each kind the browser test creates: the route, the step-1 file, what each later step fills in, and how
// it ends when that is not a plain success.
import type { Page } from "playwright-core";
import { upload } from "./ui-helpers.js";

export const jobs = [
  {
    capability: "extract",
    route: "/ui/extract",
    title: "Wikipedia features",
    mainLabel: "Capture",
    file: "wikipedia-browse.pcap",
    steps: [async (page: Page) => void (await page.getByText("Advanced parameters").click())],
  },
  {
    capability: "sanitize",
    route: "/ui/clear",
    title: "Log4Shell sanitized",
    mainLabel: "Capture to sanitize",
    file: "log4shell-exploit.pcap",
    steps: [async (page: Page) => void (await page.getByLabel("Ruleset", { exact: true }).selectOption("default"))],
  },
  {
    capability: "merge",
    route: "/ui/merge",
    title: "Wikipedia with Log4Shell",
    mainLabel: "Background capture (attack-free)",
    file: "wikipedia-browse.pcap",
    steps: [
      async (page: Page) => {
        await upload(page, "Attack capture", "log4shell-exploit.pcap");
        await page.getByLabel(/Insertion point/).fill("1");
      },
    ],
  },
  {
    capability: "label",
    route: "/ui/extract/labeling",
    title: "Log4Shell binary labels",
    // The attack capture labels itself: every session is an attack, a single class (a suspect result).
    outcome: "warning",
    mainLabel: "Capture to label",
    file: "log4shell-exploit.pcap",
    steps: [async (page: Page) => upload(page, "Attack capture", "log4shell-exploit.pcap")],
  },
  {
    capability: "label",
    route: "/ui/extract/labeling",
    title: "Multi-class labels",
    // Alerts of other traffic: none matches a session of this capture (a suspect result).
    outcome: "warning",
    mainLabel: "Capture to label",
    file: "wikipedia-browse.pcap",
    steps: [
      async (page: Page) => {
        await page.getByLabel(/Multi-class/).check();
        await upload(page, "Alerts (unified2 or EVE file)", "pyidstools_merged.u2");
      },
    ],
  },
  {
    capability: "ipt",
    route: "/ui/extract/ipts",
    title: "Wikipedia IPT",
    mainLabel: "Capture",
    file: "wikipedia-browse.pcap",
    steps: [async (page: Page) => void (await page.getByLabel(/Signed times/).check())],
  },
  {
    capability: "images",
    route: "/ui/extract/images",
    title: "Wikipedia images",
    mainLabel: "Capture",
    file: "wikipedia-browse.pcap",
    steps: [async (page: Page) => void (await page.getByLabel("Sessions (flows) per image").fill("4"))],
  },
];

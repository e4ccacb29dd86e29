// --features in every command that writes features: extract, label, ipt and images write the same sets' columns in the
// same order for the same sessions, and a label run's rows are the extract run's rows with the label after them.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { readZip } from "../../../test/helpers/read-zip.js";
import { repoRoot, runCli } from "./run-cli.js";

const capture = path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");
const sets = "cic,tracemill";
let dir = "";
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sets-cli-"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const lines = (file: string) => fs.readFileSync(file, "utf8").trimEnd().split("\n");

describe("--features", () => {
  it("gives label, ipt and images the columns extract writes, in the order asked", async () => {
    const extracted = path.join(dir, "features.csv");
    expect(runCli(["extract", capture, "--features", sets, "-o", extracted]).status).toBe(0);
    const features = lines(extracted);
    // The order asked, not the sets' own: cic's columns right after the session key.
    expect(features[0].split(",").slice(6, 8)).toEqual(["Flow Duration", "Total Fwd Packets"]);
    expect(features[0].split(",")).toContain("flowduration");

    const labelled = path.join(dir, "labelled.csv");
    const label = runCli(["label", capture, "--attacks", capture, "--features", sets, "-o", labelled]);
    expect(label.status, label.stderr).toBe(0);
    expect(lines(labelled)).toEqual(features.map((line, i) => `${line},${i === 0 ? "label" : "1"}`));

    const ipt = path.join(dir, "ipt.txt");
    const iptRun = runCli(["ipt", capture, "--features", sets, "-o", ipt]);
    expect(iptRun.status, iptRun.stderr).toBe(0);
    expect(lines(path.join(dir, "ipt.csv"))).toEqual(features);

    const images = path.join(dir, "images.zip");
    const imagesRun = runCli(["images", capture, "--features", sets, "-o", images]);
    expect(imagesRun.status, imagesRun.stderr).toBe(0);
    const csv = [...(await readZip(images)).entries()].find(([name]) => name.endsWith(".csv"));
    expect(csv?.[1].toString("utf8").trimEnd().split("\n")[0]).toBe(features[0]);
  });
});

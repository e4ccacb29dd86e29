// The jobs' wiring: the digests the server took of the stored inputs reach the outputs as given (not hashed again).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, expect, it } from "vitest";
import { capabilityRunner } from "./capabilities.js";

const fixtures = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../../test/fixtures/capture");
let outDir: string | undefined;
afterEach(() => {
  if (outDir) fs.rmSync(outDir, { recursive: true, force: true });
});

it("merge records the stored inputs' SHA-256 instead of hashing them again", async () => {
  outDir = fs.mkdtempSync(path.join(os.tmpdir(), "merge-job-"));
  const digests = { background: "1".repeat(64), attacks: "2".repeat(64) };
  const merge = await capabilityRunner("merge", null);
  const result = await merge(
    {
      inputs: {
        background: path.join(fixtures, "benign/wikipedia-browse.pcap"),
        attacks: path.join(fixtures, "attacks/eternalblue-scan.pcap"),
      },
      hashes: digests,
      params: {},
      rulesetsDir: outDir,
    },
    { outDir },
  );
  const record = result.outputs.find((o) => o.kind === "provenance-json")!;
  const header = JSON.parse(fs.readFileSync(path.join(outDir, record.name), "utf8").split("\n")[0]);
  expect(header.inputs.map((i: { sha256: string }) => i.sha256)).toEqual([digests.background, digests.attacks]);
});

it.each(["extract", "ipt"] as const)(
  "%s records the stored capture's SHA-256 instead of hashing it again",
  async (name) => {
    outDir = fs.mkdtempSync(path.join(os.tmpdir(), `${name}-job-`));
    const stored = "3".repeat(64);
    const runner = await capabilityRunner(name, null);
    const result = await runner(
      {
        inputs: { capture: path.join(fixtures, "benign/wikipedia-browse.pcap") },
        hashes: { capture: stored },
        params: {},
        rulesetsDir: outDir,
      },
      { outDir },
    );
    expect((result.summary as { input: { sha256: string } }).input.sha256).toBe(stored);
    const summary = JSON.parse(fs.readFileSync(path.join(outDir, "summary.json"), "utf8"));
    expect(summary.input.sha256).toBe(stored);
  },
);

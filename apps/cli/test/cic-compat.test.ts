// tracemill extract --cic-compat as a user runs it: CIC-IDS2017's header on standard output, and a one-line refusal
// (exit 1, nothing written) with any set but cic alone or with a capability other than extract and label.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const capture = path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap");

describe("tracemill --cic-compat", () => {
  it("writes 85 columns, Flow ID first and Label last, each row labelled NeedManualLabel", () => {
    const result = runCli(["extract", capture, "--features", "cic", "--cic-compat"]);
    expect(result.status).toBe(0);
    const [header, ...rows] = result.stdout.trimEnd().split("\n");
    // The published header's ends (the whole line is compared in engine/src/extract/cic-compat.test.ts).
    expect(header.startsWith("Flow ID, Source IP, Source Port, Destination IP,")).toBe(true);
    expect(header.endsWith(",Idle Mean, Idle Std, Idle Max, Idle Min, Label")).toBe(true);
    expect(rows.length).toBeGreaterThan(1);
    for (const row of rows) {
      const fields = row.split(",");
      expect(fields).toHaveLength(85);
      expect(fields[0]).toBe(`${fields[1]}-${fields[3]}-${fields[2]}-${fields[4]}-${fields[5]}`);
      expect(fields[6]).toMatch(/^\d\d\/\d\d\/\d{4} \d\d:\d\d:\d\d [AP]M$/);
      expect(fields[84]).toBe("NeedManualLabel");
    }
  });

  it.each([
    [["extract", "--cic-compat"], "give --features cic alone (got tracemill)"],
    [["extract", "--features", "tracemill,cic", "--cic-compat"], "give --features cic alone (got tracemill,cic)"],
    [["ipt", "--features", "cic", "--cic-compat"], "--cic-compat is for extract and label: ipt writes"],
  ])("refuses %j: exit 1, one line", (args, reason) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-cic-compat-"));
    const [command, ...options] = args;
    const result = runCli([command, capture, "-o", path.join(dir, "out.txt"), ...options]);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain(reason);
    expect(result.stderr.trimEnd().split("\n")).toHaveLength(1);
    expect(fs.readdirSync(dir)).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

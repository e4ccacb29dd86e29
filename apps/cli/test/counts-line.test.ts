// The line ipt and images end with counts its nouns: "1 session, 0 gaps", "2 sessions in 1 image".
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { repoRoot, runCli } from "./run-cli.js";

const whole = fs.readFileSync(path.join(repoRoot, "test/fixtures/capture/benign/wikipedia-browse.pcap"));
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-counts-"));
/** The capture's header and its first packet record: one session of one packet. */
const first = path.join(dir, "first.pcap");
expect(whole.readUInt32LE(0)).toBe(0xa1b2c3d4);
fs.writeFileSync(first, whole.subarray(0, 24 + 16 + whole.readUInt32LE(24 + 8)));

describe("the counts line of ipt and images", () => {
  it("says 1 session and 0 gaps for a one-packet capture", () => {
    const result = runCli(["ipt", first, "-o", path.join(dir, "ipt.txt")]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("1 session, 0 gaps: ");
  });

  it("says 1 session in 1 image", () => {
    const result = runCli(["images", first, "-n", "4", "-o", path.join(dir, "images.zip")]);
    expect(result.status).toBe(0);
    expect(result.stderr).toContain("1 session in 1 image: ");
  });
});

// An output that would replace an input (or another output) is refused before any work, and the input is untouched.
import { spawnSync } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cliPath, repoRoot, runCli } from "./run-cli.js";

const source = path.join(repoRoot, "test/fixtures/capture/formats/same100_100-packets.pcap");
const digest = (file: string) => crypto.createHash("sha256").update(fs.readFileSync(file)).digest("hex");

/** A scratch directory holding a copy of the capture as in.pcap (and as clean.pcap), and a link to it. */
function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-overwrite-"));
  fs.copyFileSync(source, path.join(dir, "in.pcap"));
  fs.copyFileSync(source, path.join(dir, "clean.pcap"));
  fs.symlinkSync("in.pcap", path.join(dir, "link.pcap"));
  return dir;
}

describe("outputs that would replace an input", () => {
  const cases: [string, string[], string][] = [
    ["extract -o onto its capture", ["extract", "in.pcap", "-o", "in.pcap"], "in.pcap is an input: "],
    [
      "extract --summary onto its capture",
      ["extract", "in.pcap", "-o", "f.csv", "--summary", "in.pcap"],
      "in.pcap is an input: ",
    ],
    [
      "the CSV and the summary in one file",
      ["extract", "in.pcap", "-o", "f.csv", "--summary", "f.csv"],
      "f.csv is given for two outputs: ",
    ],
    [
      "ipt --csv onto a link to its capture",
      ["ipt", "in.pcap", "-o", "i.txt", "--csv", "link.pcap"],
      "link.pcap is the same file as the input in.pcap: ",
    ],
    [
      "label onto its attack capture",
      ["label", "in.pcap", "--attacks", "clean.pcap", "-o", "clean.pcap"],
      "clean.pcap is an input: ",
    ],
    ["images onto its capture", ["images", "in.pcap", "-n", "2", "-o", "in.pcap"], "in.pcap is an input: "],
    [
      "sanitize into the directory of a capture named clean.pcap",
      ["sanitize", "clean.pcap", "--out", "."],
      "clean.pcap is an input: ",
    ],
  ];
  for (const [name, args, message] of cases) {
    it(`refuses ${name}`, () => {
      const dir = scratch();
      const result = runCli(args, { cwd: dir });
      expect(result.status).toBe(1);
      expect(result.stderr.startsWith(`tracemill: ${message}`)).toBe(true);
      expect(digest(path.join(dir, "in.pcap"))).toBe(digest(source));
      expect(digest(path.join(dir, "clean.pcap"))).toBe(digest(source));
      expect(fs.readdirSync(dir).sort()).toEqual(["clean.pcap", "in.pcap", "link.pcap"]);
    });
  }

  it("refuses a CSV onto the file standard input is redirected from (tracemill extract - -o in.pcap < in.pcap)", () => {
    const dir = scratch();
    const stdin = fs.openSync(path.join(dir, "in.pcap"), "r");
    try {
      const result = spawnSync(process.execPath, [cliPath, "extract", "-", "-o", "in.pcap"], {
        cwd: dir,
        stdio: [stdin, "pipe", "pipe"],
        encoding: "utf8",
      });
      expect(result.status).toBe(1);
      expect(result.stderr).toBe(
        "tracemill: in.pcap is the same file as the input /dev/stdin: give the output another name\n",
      );
    } finally {
      fs.closeSync(stdin);
    }
    expect(digest(path.join(dir, "in.pcap"))).toBe(digest(source));
  });
});

// tracemill dataset build as a user runs it, on public captures: the files it leaves, the labels an attack capture
// gives (checked against tshark's conversations), its refusals and errors, one line each.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fixturePath } from "../../../test/helpers/fixtures.js";
import { runCli } from "./run-cli.js";

let dir = "";
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-dataset-cli-"));
  fs.copyFileSync(fixturePath("ssh-normal-kali.pcap"), path.join(dir, "ssh.pcap"));
  fs.copyFileSync(fixturePath("nmap-version-scan.pcap"), path.join(dir, "nmap.pcap"));
});
afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, text);
  return file;
}

async function rows(file: string): Promise<Record<string, unknown>[]> {
  const bytes = fs.readFileSync(file);
  return parquetReadObjects({
    file: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
    compressors,
  });
}

/** TCP/UDP conversations of a capture as tshark counts them ("a:port b:port", endpoints sorted). */
function tsharkConversations(capture: string): Set<string> {
  const out = spawnSync(
    "tshark",
    [
      "-n",
      "-r",
      capture,
      "-Y",
      "tcp or udp",
      "-T",
      "fields",
      "-e",
      "ip.src",
      "-e",
      "ip.dst",
      "-e",
      "tcp.srcport",
      "-e",
      "tcp.dstport",
      "-e",
      "udp.srcport",
      "-e",
      "udp.dstport",
    ],
    { encoding: "utf8" },
  ).stdout;
  const set = new Set<string>();
  for (const line of out.trim().split("\n")) {
    const [src, dst, ts, td, us, ud] = line.split("\t");
    const a = `${src}:${ts || us}`;
    const b = `${dst}:${td || ud}`;
    set.add([a, b].sort().join(" "));
  }
  return set;
}

describe("tracemill dataset build", () => {
  it("builds the splits and the card, the attack capture's conversations labelled with its class", async () => {
    const spec = write(
      "spec.yaml",
      "name: cli test\ncaptures: [ssh.pcap, nmap.pcap]\nlabels:\n  attacks: [{ path: nmap.pcap, class: scan }]\nsplit: { method: random, seed: 2 }\n",
    );
    const out = path.join(dir, "out");
    const result = runCli(["dataset", "build", spec, "-o", out]);
    expect(result.stderr).toMatch(
      /sessions \(benign \d+, scan \d+\); splits: train \d+, test \d+; audit: \d+ columns? flagged/,
    );
    expect(result.status).toBe(0);
    expect(fs.readdirSync(out).sort()).toEqual(["DATASET.md", "dataset.json", "test.parquet", "train.parquet"]);
    const all = [...(await rows(path.join(out, "train.parquet"))), ...(await rows(path.join(out, "test.parquet")))];
    const attacks = tsharkConversations(path.join(dir, "nmap.pcap"));
    for (const row of all) {
      const conversation = [`${row.srcIP}:${row.srcPrt}`, `${row.dstIP}:${row.dstPrt}`].sort().join(" ");
      expect(row.class, conversation).toBe(attacks.has(conversation) ? "scan" : "benign");
    }
    expect(all.filter((r) => r.capture === "nmap.pcap").every((r) => r.class === "scan")).toBe(true);
    const card = JSON.parse(fs.readFileSync(path.join(out, "dataset.json"), "utf8"));
    expect(card.captures.map((c: { path: string }) => c.path)).toEqual(["../ssh.pcap", "../nmap.pcap"]);
    expect(card.built.rows).toBe(all.length);
    // The file a session came from separates the attack capture by construction: an identifier, not a leaky feature.
    const capture = card.built.audit.rows.find((row: { column: string }) => row.column === "capture");
    expect(capture.reason).toMatch(/identifier/);
    expect(result.stderr).not.toMatch(/warning: .*\(.*\bcapture\b.*\)/);
    expect(result.stderr).toContain(`tracemill: note: DATASET.md lists ${card.built.caveats.length} caveat`);
  });

  it("refuses to write over the spec it reads", () => {
    const result = runCli(["dataset", "build", path.join(dir, "out", "dataset.json"), "-o", path.join(dir, "out")]);
    expect(result.status).toBe(1);
    expect(result.stderr.trim().split("\n")).toHaveLength(1);
  });

  it("names the line and the field of a bad spec, and a missing capture, in one line", () => {
    const bad = write("bad.yaml", "captures: [ssh.pcap]\nsplit:\n  method: sideways\n");
    const result = runCli(["dataset", "build", bad, "-o", path.join(dir, "bad-out")]);
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/^tracemill: .*bad\.yaml line 3: split\.method: .*\n$/);
    const missing = write("missing.yaml", "captures: [nowhere.pcap]\n");
    const second = runCli(["dataset", "build", missing, "-o", path.join(dir, "missing-out")]);
    expect(second.status).toBe(1);
    expect(second.stderr).toMatch(/captures\[0\]: .*nowhere\.pcap: no such file/);
    expect(fs.readdirSync(path.join(dir, "missing-out"))).toEqual([]);
  });
});

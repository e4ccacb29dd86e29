// A command whose result is suspect says so after its summary line (tracemill: warning: …) and lists the warnings in
// its summary file under resultWarnings; a sound result says nothing more. Captures and alerts are built here, so the
// counts in the messages are known by construction.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import { runCli } from "./run-cli.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-result-warnings-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const T = Date.UTC(2024, 0, 31, 12) / 1000;
const ACK = 0x10;
const SYN = 0x02;

function file(name: string, content: string | Uint8Array): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

/** Each client port makes one session 10.0.0.1:port → 10.0.0.2:80 of `packets` packets 0.1 s apart. */
function capture(name: string, ports: number[], packets: number, flags = ACK): string {
  const records = ports.flatMap((port, i) =>
    Array.from({ length: packets }, (_, k) =>
      capturedPacket(ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: port, dstPort: 80, flags }))), {
        linkType: 1,
        tsSec: T + i,
        tsNsec: k * 100_000_000,
      }),
    ),
  );
  return file(name, pcapFile(records));
}

/** An EVE alert on 10.0.0.1:port → 10.0.0.2:80 (or on other hosts), 0.1 s into the session's second. */
function eveAlert(port: number, offset: number, hosts = ["10.0.0.1", "10.0.0.2"]): string {
  return JSON.stringify({
    timestamp: `2024-01-31T12:00:0${offset}.100000+0000`,
    event_type: "alert",
    src_ip: hosts[0],
    src_port: port,
    dest_ip: hosts[1],
    dest_port: 80,
    proto: "TCP",
    alert: { gid: 1, signature_id: 7, rev: 1, signature: "s", category: "Misc activity", severity: 2 },
  });
}

const warningLines = (stderr: string) => stderr.split("\n").filter((line) => line.startsWith("tracemill: warning: "));
const summaryOf = (file: string) => JSON.parse(fs.readFileSync(file, "utf8"));

describe("label --alerts", () => {
  const web = capture("web.pcap", [1000, 1001], 3);

  it("says that none of the alerts matched when they are about other hosts, and lists it in the summary", () => {
    // Four alerts between hosts the capture never saw.
    const alerts = file(
      "other.json",
      [0, 1, 2, 3].map((i) => eveAlert(2000 + i, 0, ["192.0.2.1", "192.0.2.2"])).join("\n"),
    );
    const summary = path.join(dir, "other.summary.json");
    const result = runCli(["label", web, "--alerts", alerts, "-o", path.join(dir, "other.csv"), "--summary", summary]);
    expect(result.status, result.stderr).toBe(0);
    const message =
      "None of the 4 alerts read matched a session of the capture, so every session is labelled benign: are the alerts from this capture?";
    expect(warningLines(result.stderr)).toEqual([`tracemill: warning: ${message}`]);
    // After the summary line.
    expect(result.stderr.indexOf("tracemill: warning: None")).toBeGreaterThan(
      result.stderr.indexOf("2 sessions labelled"),
    );
    expect(summaryOf(summary).resultWarnings).toEqual([{ code: "no-alerts-matched", message }]);
  });

  it("says nothing more when an alert marks one of the two sessions, and lists no warnings", () => {
    const alerts = file("one.json", eveAlert(1001, 1));
    const summary = path.join(dir, "one.summary.json");
    const result = runCli(["label", web, "--alerts", alerts, "-o", path.join(dir, "one.csv"), "--summary", summary]);
    expect(result.status, result.stderr).toBe(0);
    expect(warningLines(result.stderr)).toEqual([]);
    expect(summaryOf(summary)).not.toHaveProperty("resultWarnings");
    expect(summaryOf(summary).labels.matchedAlerts).toBe(1);
  });
});

describe("extract", () => {
  it("says when every session has a single packet (10 SYNs from 10 ports)", () => {
    const syns = capture(
      "syns.pcap",
      [...Array(10).keys()].map((i) => 40000 + i),
      1,
      SYN,
    );
    const csv = path.join(dir, "syns.csv");
    const result = runCli(["extract", syns, "-o", csv]);
    expect(result.status, result.stderr).toBe(0);
    expect(warningLines(result.stderr)).toEqual([
      "tracemill: warning: Every session has a single packet (10 sessions): durations, inter-arrival times and other per-session statistics carry no information.",
    ]);
    expect(summaryOf(path.join(dir, "syns.summary.json")).resultWarnings.map((w: { code: string }) => w.code)).toEqual([
      "single-packet-sessions",
    ]);
    // Ten data rows under the header.
    expect(fs.readFileSync(csv, "utf8").trim().split("\n")).toHaveLength(11);
  });

  it("says nothing of two sessions of three packets", () => {
    const result = runCli(["extract", capture("two.pcap", [1, 2], 3), "-o", path.join(dir, "two.csv")]);
    expect(result.status, result.stderr).toBe(0);
    expect(warningLines(result.stderr)).toEqual([]);
    expect(summaryOf(path.join(dir, "two.summary.json"))).not.toHaveProperty("resultWarnings");
  });
});

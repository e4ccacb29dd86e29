// tracemill label --alerts on alert files that are wrong in every way a file can be: each ends with exit 0 (skips
// reported as warnings) or exit 1 with one line naming the file and the line or byte, never an internal error or a
// stack trace, and never an output file left behind by a failed run.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import { repoRoot, runCli } from "./run-cli.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-alert-inputs-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const fixtures = path.join(repoRoot, "test/fixtures/alerts");

function file(name: string, content: string | Uint8Array): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

/** One TCP session 10.0.0.1:1234 → 10.0.0.2:80 at 2024-01-31T12:00:00Z, 3 packets 0.1 s apart. */
const frame = ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 1234, dstPort: 80, flags: 0x10 })));
const T = Date.UTC(2024, 0, 31, 12) / 1000;
const capture = file(
  "capture.pcap",
  pcapFile([0, 1, 2].map((k) => capturedPacket(frame, { linkType: 1, tsSec: T, tsNsec: k * 100_000_000 }))),
);

const alert = (more: Record<string, unknown> = {}) =>
  JSON.stringify({
    timestamp: "2024-01-31T12:00:00.100000+0000",
    flow_id: 1234567,
    event_type: "alert",
    src_ip: "10.0.0.1",
    src_port: 1234,
    dest_ip: "10.0.0.2",
    dest_port: 80,
    proto: "TCP",
    alert: {
      action: "allowed",
      gid: 1,
      signature_id: 7,
      rev: 1,
      signature: "s",
      category: "Misc activity",
      severity: 2,
    },
    ...more,
  });
const eveText = [
  '{"timestamp":"2024-01-31T12:00:00.000000+0000","event_type":"flow","src_ip":"10.0.0.1","dest_ip":"10.0.0.2"}',
  alert(),
  // Suricata's alert on a non-IP packet has no addresses.
  '{"timestamp":"2024-01-31T12:00:00.500000+0000","pcap_cnt":9,"event_type":"alert","alert":{"signature_id":2,"severity":3}}',
  alert({ src_port: 4321 }),
].join("\n");

/** Runs label --alerts and checks the edge's promises; returns the status and the lines that are not warnings. */
function label(alerts: string, extra: string[] = []) {
  const output = path.join(dir, "classified.csv");
  fs.rmSync(output, { force: true });
  const result = runCli(["label", capture, "--alerts", alerts, "-o", output, ...extra]);
  expect([0, 1]).toContain(result.status);
  expect(result.stderr).not.toMatch(/internal error|^\s+at |RangeError|TypeError/m);
  const lines = result.stderr
    .trimEnd()
    .split("\n")
    .filter((l) => l !== "" && !l.startsWith("tracemill: warning: "));
  if (result.status === 1) {
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^tracemill: /);
    expect(fs.existsSync(output)).toBe(false);
  } else expect(fs.readFileSync(output, "utf8").split("\n")[0]).toContain(",label,class_id,class");
  // No scratch directory of the run is left either.
  expect(fs.readdirSync(dir).filter((name) => name.startsWith(".tracemill-"))).toEqual([]);
  return { status: result.status, error: result.status === 1 ? lines[0] : "", stderr: result.stderr };
}

describe("tracemill label --alerts on bad alert files", () => {
  it("labels from a good EVE file and warns about the alert without addresses it skipped", () => {
    const eve = file("eve.json", eveText);
    const run = label(eve);
    expect(run.status).toBe(0);
    expect(run.stderr).toContain(
      `tracemill: warning: ${eve}: 1 alert without IP addresses skipped (no session can hold them), the first on line 3\n`,
    );
    expect(run.stderr).toContain("alerts: 2 read");
  });

  it("names the file, line and member of a field with the wrong JSON type", () => {
    const eve = file("wrong-type.json", `${alert()}\n${alert()}\n${alert({ src_ip: 7 })}\n`);
    expect(label(eve).error).toBe(`tracemill: ${eve}, line 3: "src_ip" is 7, not a string`);
  });

  it("refuses a line of 600 MB by its number, without reading it whole", () => {
    const eve = file("long.json", `${alert()}\n{"event_type":"alert","x":"`);
    // Sparse: 600 MB on paper, no disk.
    fs.truncateSync(eve, 600 * 1024 * 1024);
    const offset = alert().length + 1;
    expect(label(eve).error).toBe(
      `tracemill: ${eve}, line 2 (from byte ${offset}): longer than 64 MiB, the longest line read (an alert line is a few kilobytes)`,
    );
  });

  it("names the file and the reason when the alert or classification file is not a readable file", () => {
    const eve = file("good.json", eveText);
    const link = path.join(dir, "dangling.json");
    fs.symlinkSync(path.join(dir, "nowhere.json"), link);
    const bad = file("bad.config", "config classification: a,A,1\nconfig classification: broken\n");
    const cases: [string[], string][] = [
      [[dir], `tracemill: ${dir}: a directory, not an alert file`],
      [[link], `tracemill: ${link}: cannot open the file (a symbolic link to a file that does not exist)`],
      [[`${eve}/x`], `tracemill: ${eve}/x: cannot open the file (ENOTDIR: not a directory)`],
      [[eve, "--classification", dir], `tracemill: ${dir}: a directory, not a classification.config`],
      [
        [eve, "--classification", bad],
        `tracemill: ${bad}: line 2 is not a comment or "config classification: name,description,priority"`,
      ],
    ];
    for (const [args, message] of cases) {
      const [alerts, ...extra] = args;
      expect(label(alerts, extra).error).toBe(message);
    }
  });

  it("ends every mutated EVE and unified2 file with exit 0 or one line and exit 1", () => {
    let seed = 20261129;
    const rnd = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const mutate = (bytes: Uint8Array) => {
      const out = Buffer.from(bytes);
      for (let e = 0; e < 3; e++) out[Math.floor(rnd() * out.length)] = Math.floor(rnd() * 256);
      return rnd() < 0.3 ? out.subarray(0, Math.floor(rnd() * out.length)) : out;
    };
    const u2 = fs.readFileSync(path.join(fixtures, "pyidstools_merged.u2"));
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) {
      statuses.push(label(file(`eve-${i}.json`, mutate(Buffer.from(eveText)))).status ?? -1);
      statuses.push(label(file(`u2-${i}.u2`, mutate(u2))).status ?? -1);
    }
    // The seed gives runs of both kinds.
    expect(statuses).toContain(0);
    expect(statuses).toContain(1);
  });
});

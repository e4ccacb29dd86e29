// Alert and classification files as labelling reads them: what is counted and skipped, what is refused in one line
// naming the file and the line or byte, and files that are not files at all.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { AlertInput } from "./alert-input.js";
import { eachLine } from "./eve-lines.js";
import { loadAlerts, loadClassification } from "./load-alerts.js";

const fixtures = path.resolve(import.meta.dirname, "../../../../test/fixtures/alerts");
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-load-alerts-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Uint8Array): string {
  const target = path.join(dir, name);
  fs.writeFileSync(target, content);
  return target;
}

const alert = (more: Record<string, unknown> = {}) =>
  JSON.stringify({
    timestamp: "2024-01-31T12:00:00.000001+0000",
    event_type: "alert",
    src_ip: "10.0.0.1",
    src_port: 1234,
    dest_ip: "10.0.0.2",
    dest_port: 80,
    proto: "TCP",
    alert: { signature_id: 7, category: "Misc activity", severity: 2 },
    ...more,
  });
// Suricata 7.0.10's alert on a 7-byte Ethernet frame: no addresses (eve-alert.test.ts has its rule).
const noAddresses =
  '{"timestamp":"1970-01-01T00:16:40.000000+0000","pcap_cnt":1,"event_type":"alert","pkt_src":"wire/pcap","alert":{"action":"allowed","gid":1,"signature_id":1,"rev":1,"signature":"eth too small","category":"","severity":3}}';

describe("loadAlerts on EVE JSON", () => {
  it("counts other events, skips alerts without addresses with a warning naming the first, and reads the rest", async () => {
    const lines = [
      '{"timestamp":"2024-01-31T12:00:00.000000+0000","event_type":"flow"}',
      "",
      alert(),
      "  ",
      noAddresses,
      '{"event_type":"stats","stats":{"alert":3}}',
      alert({ src_ip: "2001:db8::1", dest_ip: "2001:db8::2", dest_port: 443 }),
      noAddresses,
    ];
    // A byte order mark, CRLF line ends, and a last line without a newline.
    const loaded = await loadAlerts(file("mixed.json", `\ufeff${lines.join("\r\n")}`));
    expect(loaded).toMatchObject({ format: "eve", otherEvents: 2, alertsWithoutAddresses: 2, skippedRecords: 0 });
    expect(loaded.alerts.map((a) => [a.addressLength, a.dstPort, a.signatureId, a.priority])).toEqual([
      [4, 80, 7, 2],
      [16, 443, 7, 2],
    ]);
    expect(loaded.alerts[0].timeUs).toBe(Date.UTC(2024, 0, 31, 12) * 1000 + 1);
    expect(loaded.warnings).toEqual([
      `${path.join(dir, "mixed.json")}: 2 alerts without IP addresses skipped (no session can hold them), the first on line 5`,
    ]);
  });

  it("refuses a member of the wrong type, naming the file, line and member", async () => {
    const target = file("wrong.json", `${alert()}\n${alert()}\n${alert({ src_ip: 7 })}\n${alert()}\n`);
    await expect(loadAlerts(target)).rejects.toMatchObject({
      code: "BAD_INPUT",
      message: `${target}, line 3: "src_ip" is 7, not a string`,
      context: { file: target, line: 3, member: "src_ip" },
    });
  });

  it("refuses a line that is not JSON, a cut last line included", async () => {
    const cut = alert().slice(0, 100);
    const target = file("cut.json", `${alert()}\n${cut}`);
    await expect(loadAlerts(target)).rejects.toThrow(`${target}, line 2: not JSON`);
    const text = file("text.json", `${alert()}\nhello\n`);
    await expect(loadAlerts(text)).rejects.toThrow(`${text}, line 2: not a JSON object`);
  });

  it("reads an empty file as no alerts", async () => {
    expect(await loadAlerts(file("empty.json", ""))).toMatchObject({ format: "eve", alerts: [], otherEvents: 0 });
  });

  it("reads alerts from a pipe", async () => {
    const fifo = path.join(dir, "alerts.fifo");
    spawnSync("mkfifo", [fifo]);
    const writer = fs.promises.writeFile(fifo, `${alert()}\n${alert({ dest_port: 8080 })}\n`);
    const loaded = await loadAlerts(fifo);
    await writer;
    expect(loaded.alerts.map((a) => a.dstPort)).toEqual([80, 8080]);
  });
});

describe("eachLine", () => {
  it("gives every line whatever the lengths, buffer growth and compaction, and refuses one past the limit", async () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const lines = Array.from({ length: 300 }, (_, i) => `${i}:${"x".repeat(Math.floor(random() ** 3 * 3000))}`);
    const target = file("lines.txt", lines.join("\n"));
    const read: string[] = [];
    const input = await AlertInput.open(target, "a file");
    try {
      // A small first buffer, so that long lines make it grow and short ones move the rest to its start.
      await eachLine(input, { buffer: Buffer.alloc(16), filled: 0 }, (b, start, end, line) => {
        expect(line).toBe(read.length + 1);
        read.push(Buffer.from(b.subarray(start, end)).toString());
      });
    } finally {
      await input.close();
    }
    expect(read).toEqual(lines);
    const longest = Math.max(...lines.map((l) => l.length));
    const at = lines.findIndex((l) => l.length === longest);
    const offset = lines.slice(0, at).reduce((n, l) => n + l.length + 1, 0);
    const limited = await AlertInput.open(target, "a file");
    try {
      await expect(
        eachLine(limited, { buffer: Buffer.alloc(16), filled: 0 }, () => {}, longest - 1),
      ).rejects.toMatchObject({
        message: `${target}, line ${at + 1} (from byte ${offset}): longer than ${longest - 1} bytes, the longest line read (an alert line is a few kilobytes)`,
        context: { file: target, line: at + 1, offset },
      });
    } finally {
      await limited.close();
    }
  });
});

describe("loadAlerts on unified2 and on what is no alert file", () => {
  it("skips records of unknown types with a warning naming the first", async () => {
    const known = fs.readFileSync(path.join(fixtures, "pyidstools_ipv6-alert.unified2"));
    const unknown = Buffer.from("00000071000000030909090000006f00000000", "hex");
    const loaded = await loadAlerts(file("unknown.u2", Buffer.concat([unknown, known])));
    expect(loaded).toMatchObject({ format: "unified2", skippedRecords: 2 });
    expect(loaded.alerts).toHaveLength(1);
    expect(loaded.warnings).toEqual([
      `${path.join(dir, "unknown.u2")}: 2 unified2 records of unknown type skipped, the first (type 113) at byte 0`,
    ]);
  });

  it("refuses text that is not EVE JSON as no unified2 file", async () => {
    const csv = file("alerts.csv", "time,src,dst\n1,2,3\n");
    await expect(loadAlerts(csv)).rejects.toThrow(`${csv}: record at byte 0 has type 1953066341 and announces`);
  });

  it("refuses gzip data, naming it", async () => {
    const gz = file("eve.json.gz", Buffer.from("1f8b0800000000000003", "hex"));
    await expect(loadAlerts(gz)).rejects.toThrow(`${gz}: gzip-compressed; alert files are read uncompressed`);
  });

  it("names the file and the reason for a directory, a missing file, a dangling link and a file used as a folder", async () => {
    const link = path.join(dir, "dangling.json");
    fs.symlinkSync(path.join(dir, "nowhere.json"), link);
    const plain = file("plain.json", alert());
    const cases: [string, string][] = [
      [dir, `${dir}: a directory, not an alert file`],
      [path.join(dir, "missing.json"), `${dir}/missing.json: cannot open the file (ENOENT: no such file or directory)`],
      [link, `${link}: cannot open the file (a symbolic link to a file that does not exist)`],
      [`${plain}/x`, `${plain}/x: cannot open the file (ENOTDIR: not a directory)`],
    ];
    for (const [target, message] of cases) {
      await expect(loadAlerts(target)).rejects.toMatchObject({ message, context: { file: target } });
    }
  });
});

describe("loadClassification", () => {
  it("reads a classification.config and refuses a line that is not one, naming it", async () => {
    const table = await loadClassification(path.join(fixtures, "classification.config"));
    expect(table.byName("trojan-activity")?.id).toBe(21);
    const bad = file("bad.config", "# c\nconfig classification: a,A,1\nclasstype b\n");
    await expect(loadClassification(bad)).rejects.toMatchObject({
      message: `${bad}: line 3 is not a comment or "config classification: name,description,priority"`,
      context: { file: bad, line: 3 },
    });
  });

  it("refuses a directory and a file too large to be one", async () => {
    await expect(loadClassification(dir)).rejects.toThrow(`${dir}: a directory, not a classification.config`);
    const big = file("big.config", `# ${"x".repeat(1024 * 1024)}\n`);
    await expect(loadClassification(big)).rejects.toThrow(`${big}: larger than 1 MiB, not a classification.config`);
  });
});

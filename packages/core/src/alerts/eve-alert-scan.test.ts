// EVE alerts read from bytes: the same values as parseEveAlertLine on every layout (fast way or not), and the same
// unified2 bytes as the record encoder, also across chunk boundaries.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ByteBatch } from "../capture/byte-batch.js";
import { eveFieldValues, expectedEveFields } from "../testing/eve-fields.js";
import { unified2RecordsFromAlert } from "./alert-to-unified2.js";
import { parseClassificationConfig } from "./classification.js";
import { parseEveAlertLine } from "./eve-alert.js";
import type { EveAlertFields } from "./eve-alert-fields.js";
import { EveAlertReader } from "./eve-alert-scan.js";
import { writeUnified2Alert } from "./unified2-alert-writer.js";
import { encodeUnified2Record } from "./unified2-writer.js";

const fixtures = path.resolve(import.meta.dirname, "../../../../test/fixtures/alerts");
const classifications = parseClassificationConfig(
  fs.readFileSync(path.join(fixtures, "classification.config"), "utf8"),
);
const real = ["eve-bug-28.json", "eve-layouts.json"].flatMap((f) =>
  fs.readFileSync(path.join(fixtures, f), "utf8").trim().split("\n"),
);
const tcp = real.find((l) => l.includes('"signature_id":1100') || l.includes('"dest_port":25')) as string;
// Variants Suricata may write too: escapes, other actions and categories, spacing, an escaped "/" in base64.
const variants = [
  tcp.replace('"action":"allowed"', '"action":"blocked"'),
  tcp.replace(/"signature":"[^"]*"/, '"signature":"quote \\" and \\u00e9 and } {"'),
  tcp.replace(/"category":"[^"]*"/, '"category":"A Network Trojan was detected"'),
  tcp.replace(/"category":"[^"]*",/, ""),
  tcp.replace(/"severity":\d+/, '"severity":1'),
  tcp.replace(/"packet":"([^"]{4})/, '"packet":"$1\\/'),
  // Base64 the one-pass decoder must hand back to the two-pass way, or read as it does: padding at the end, a length
  // that is not a multiple of four, an empty packet, more than the 4 KiB scratch.
  tcp.replace(/"packet":"[^"]*"/, '"packet":"AAECAwQ="'),
  tcp.replace(/"packet":"[^"]*"/, '"packet":"AAECAw=="'),
  tcp.replace(/"packet":"[^"]*"/, '"packet":"AAECAwQFB"'),
  tcp.replace(/"packet":"[^"]*"/, '"packet":""'),
  tcp.replace(/"packet":"[^"]*"/, `"packet":"${"AAEC".repeat(1500)}"`),
  tcp.replace(/"packet":"[^"]*"/, '"packet":"AAECAwQ\u0041"'),
  tcp.replace(/,"packet_info":\{[^}]*\}/, ""),
  tcp.replace(/,"pcap_cnt":\d+/, ""),
  tcp.replace(/"flow_id":\d+/, '"flow_id":123456789012345678901'),
  tcp.replace(/"start":"[^"]*"/, '"start":"2015-04-15T22:35:59.000001+0200"'),
  tcp.replace(/"timestamp":"[^"]*"/, '"timestamp":"2015-04-15T22:36:06.5+0000"'),
  tcp.replace(/"src_ip":"[^"]*"/, '"src_ip":"2001:db8::1"').replace(/"dest_ip":"[^"]*"/, '"dest_ip":"2001:db8::2"'),
  tcp.replace(/,"/g, ', "').replace(/":/g, '": '),
  tcp.replace('"event_type":"alert"', '"event_type":"flow"'),
  // VLAN ids as Suricata writes them after "event_type", outer first (one, QinQ, three tags).
  tcp.replace('"event_type":"alert",', '"event_type":"alert","vlan":[10],'),
  tcp.replace('"event_type":"alert",', '"event_type":"alert","vlan":[100,10],'),
  tcp.replace('"event_type":"alert",', '"event_type":"alert","vlan":[4095,0,7],'),
  // Suricata's alert on a non-IP packet (eve-alert.test.ts): no addresses, read with address length 0.
  '{"timestamp":"1970-01-01T00:16:40.000000+0000","pcap_cnt":1,"event_type":"alert","pkt_src":"wire/pcap","alert":{"action":"allowed","gid":1,"signature_id":1,"rev":1,"signature":"eth too small","category":"","severity":3}}',
  `${tcp}\r`,
  "",
];

const expected = (line: string) => expectedEveFields(line, classifications);
const actual = eveFieldValues;

describe("EveAlertReader", () => {
  it("reads every line as parseEveAlertLine does, twice in a row (rules and timestamps cached)", () => {
    const reader = new EveAlertReader(classifications);
    const lines = [...real, ...variants];
    // Two variants and the fixture's flow record are not alerts.
    expect(lines.filter((l) => parseEveAlertLine(l, classifications)).length).toBe(lines.length - 3);
    const qinq = variants.find((l) => l.includes('"vlan":[100,10]')) as string;
    expect(parseEveAlertLine(qinq, classifications)?.vlan).toEqual([100, 10]);
    for (const round of [1, 2]) {
      for (const line of lines) {
        // Lines sit inside a larger buffer, as they do in a read chunk.
        const bytes = new TextEncoder().encode(`x\n${line}\n{"y":1}`);
        const end = bytes.length - 8;
        expect([round, line, actual(reader.read(bytes, 2, end))]).toEqual([round, line, expected(line)]);
      }
    }
  });

  it("throws for a broken alert line as parseEveAlertLine does, naming the member", () => {
    for (const [broken, message] of [
      [tcp.replace(/"src_ip":"[^"]*"/, '"src_ip":"1.2.3"'), '"src_ip" is "1.2.3", not an IP address'],
      // Text the one-pass base64 decoder stops at, handed to the two-pass way, which refuses it too.
      [tcp.replace(/"packet":"[^"]*"/, '"packet":"not base64!"'), '"packet" is "not base64!", not base64 text'],
      [tcp.replace(/"packet":"[^"]*"/, '"packet":"AAAA=AAAAAAA"'), '"packet" is "AAAA=AAAAAAA", not base64 text'],
      [tcp.replace(/"dest_port":\d+/, '"dest_port":65536'), '"dest_port" is 65536, not a whole number from 0 to 65535'],
      [
        tcp.replace('"event_type":"alert",', '"event_type":"alert","vlan":[1,2,3,4],'),
        '"vlan" is an array, not up to three VLAN ids',
      ],
    ]) {
      const bytes = new TextEncoder().encode(broken);
      const source = { file: "eve.json", line: 7 };
      expect(() => parseEveAlertLine(broken, classifications, source)).toThrow(`eve.json, line 7: ${message}`);
      expect(() => new EveAlertReader().read(bytes, 0, bytes.length, source)).toThrow(`eve.json, line 7: ${message}`);
    }
  });
  it("reads a member nested deeper than the stack allows recursion, as JSON.parse does", () => {
    const depth = 200_000;
    const deep = tcp.replace(/,"pcap_cnt":\d+/, `,"x":${"[".repeat(depth)}${"]".repeat(depth)}`);
    const bytes = new TextEncoder().encode(deep);
    expect(actual(new EveAlertReader(classifications).read(bytes, 0, bytes.length))).toEqual(expected(deep));
  });

  it("tells apart rule objects that differ only in their last bytes, and more rules than it remembers", () => {
    const reader = new EveAlertReader(classifications);
    const long = "s".repeat(400);
    const late = ["A", "B"].map((c) => tcp.replace(/"signature":"[^"]*"/, `"signature":"${long}${c}"`));
    const severity = tcp.replace(/"severity":(\d+)\}/, '"severity":$1,"x":1}');
    const many = Array.from({ length: 40 }, (_, k) =>
      tcp.replace(/"signature_id":\d+/, `"signature_id":${(k % 20) + 1}`),
    );
    for (const line of [...late, ...late, severity, tcp, severity, ...many]) {
      const bytes = new TextEncoder().encode(line);
      expect([line, actual(reader.read(bytes, 0, bytes.length))]).toEqual([line, expected(line)]);
    }
  });

  it("refuses what JSON.parse refuses, as parseEveAlertLine does (numbers, literals, strings, lines run together)", () => {
    const cut = tcp.indexOf('"pcap_cnt":') + 12;
    const refused = [
      tcp.replace(/"flow_id":\d+/, '"flow_id":01'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":1x2'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":-'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":1.'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":1e'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":tru'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":nulls'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":"a\tb"'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":"a\\qb"'),
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":"a\\u12g4"'),
      tcp.replace(/"signature":"/, '"signature":"\\x'),
      // A line cut in a number, then the next one: the number would run into it up to a comma.
      tcp.slice(0, cut) + tcp,
    ];
    const reader = new EveAlertReader(classifications);
    for (const line of refused) {
      expect(() => parseEveAlertLine(line, classifications)).toThrow("eve.json: not JSON");
      const bytes = new TextEncoder().encode(line);
      expect(() => reader.read(bytes, 0, bytes.length)).toThrow("eve.json: not JSON");
    }
    // What JSON allows still reads the fast way's values.
    for (const line of [
      tcp.replace(/,"pcap_cnt":\d+/, ',"x":[-0.5e+3,1E2,true,false,null,{"a":"\\u00E9\\n"}]'),
      tcp.replace(/"signature":"/, '"signature":"\\b\\f\\r\\t\\/'),
    ]) {
      const bytes = new TextEncoder().encode(line);
      expect(actual(reader.read(bytes, 0, bytes.length))).toEqual(expected(line));
    }
  });
});

describe("writeUnified2Alert", () => {
  it("writes the bytes of the record encoder, records split over many small chunks", () => {
    const chunks: Uint8Array[] = [];
    const batch = new ByteBatch((chunk) => chunks.push(chunk), 200);
    const reader = new EveAlertReader(classifications);
    const reference: Uint8Array[] = [];
    let eventId = 0;
    for (const line of [...real, ...variants, ...real]) {
      const alert = parseEveAlertLine(line, classifications);
      // unified2 has no record for an alert without addresses: sanitization counts those instead (notInUnified2).
      if (!alert || alert.ipVersion === 0) continue;
      eventId++;
      for (const record of unified2RecordsFromAlert(alert, eventId)) reference.push(encodeUnified2Record(record));
      const bytes = new TextEncoder().encode(line);
      writeUnified2Alert(batch, reader.read(bytes, 0, bytes.length) as EveAlertFields, eventId);
    }
    batch.flush();
    expect(chunks.length).toBeGreaterThan(10);
    expect(Buffer.concat(chunks).equals(Buffer.concat(reference))).toBe(true);
  });
});

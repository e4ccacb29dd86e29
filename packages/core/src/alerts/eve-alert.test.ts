// EVE alert lines and classification.config: the normalized Alert keeps what labelling and unified2 need.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { TracemillError } from "../errors.js";
import { parseClassificationConfig } from "./classification.js";
import { parseEveAlertLine, parseEveTimestamp } from "./eve-alert.js";

const fixtures = path.resolve(import.meta.dirname, "../../../../test/fixtures/alerts");
const classifications = parseClassificationConfig(
  fs.readFileSync(path.join(fixtures, "classification.config"), "utf8"),
);

describe("classification.config", () => {
  it("numbers classtypes by position and keeps description and priority", () => {
    expect(classifications.entries.length).toBe(43);
    expect(classifications.byId(1)).toEqual({
      id: 1,
      name: "not-suspicious",
      description: "Not Suspicious Traffic",
      priority: 3,
    });
    expect(classifications.byName("trojan-activity")).toMatchObject({ id: 21, priority: 1 });
    expect(classifications.byDescription("A Network Trojan was detected")?.name).toBe("trojan-activity");
  });

  it("lets a repeated name update its entry without renumbering", () => {
    const table = parseClassificationConfig(
      "# comment\nconfig classification: a,First, with comma,2\nconfig classification: b,B,1\nconfig classification: a,Again,3\n",
    );
    expect(table.entries.map((e) => [e.id, e.name, e.description, e.priority])).toEqual([
      [1, "a", "Again", 3],
      [2, "b", "B", 1],
    ]);
    expect(parseClassificationConfig("config classification: x,Has, commas,4").byId(1)?.description).toBe(
      "Has, commas",
    );
  });

  it("rejects a malformed line with its number", () => {
    expect(() => parseClassificationConfig("\nconfig classification: broken", "c.config")).toThrow(
      /c.config: line 2 is not/,
    );
  });
});

describe("EVE alert lines", () => {
  const lines = fs.readFileSync(path.join(fixtures, "eve-bug-28.json"), "utf8").trim().split("\n");

  it("normalizes a Suricata 7 alert, flow id kept exactly", () => {
    const alert = parseEveAlertLine(lines[0], classifications);
    expect(alert).toMatchObject({
      tsSec: 1259086524,
      tsNsec: 414425000,
      ipVersion: 4,
      protocol: 6,
      src: "192.168.2.7",
      dst: "208.75.250.50",
      srcPort: 1041,
      dstPort: 80,
      gid: 1,
      sid: 2001340,
      rev: 9,
      classId: 21,
      className: "trojan-activity",
      priority: 1,
      signature: "ET MALWARE LocalNRD Spyware Checkin (Original Sig Fails to Fire)",
      blocked: false,
      flowId: "2144043525024620",
      flowStart: { tsSec: 1259086431, tsNsec: 433663000 },
    });
    // The alert fired on a stream pseudo-packet: Suricata logs it with link type 1 and raw IPv4 bytes.
    expect(alert?.packet?.data[0]).toBe(0x45);
  });

  it("ignores other event types and rejects a broken alert line", () => {
    const flowLine = lines.find((l) => l.includes('"event_type":"flow"'));
    expect(flowLine).toBeDefined();
    expect(parseEveAlertLine(flowLine ?? "")).toBeUndefined();
    expect(() =>
      parseEveAlertLine('{"event_type":"alert", "timestamp"', undefined, { file: "e.json", line: 3 }),
    ).toThrow("e.json, line 3: not JSON");
  });

  it("keeps a category the classification file does not list as the class name", () => {
    const line = lines[0].replace("A Network Trojan was detected", "Something new");
    expect(parseEveAlertLine(line, classifications)).toMatchObject({ classId: 0, className: "Something new" });
  });

  it("uses ICMP type and code as ports and reads IPv6 in any spelling", () => {
    const line =
      '{"timestamp":"2020-01-01T01:00:00.5+0100","event_type":"alert","src_ip":"2001:0db8:0000:0000:0000:0000:0000:0001","dest_ip":"ff02::1","proto":"IPv6-ICMP","icmp_type":128,"icmp_code":0,"pcap_cnt":7,"alert":{"signature_id":1,"severity":2}}';
    expect(parseEveAlertLine(line)).toMatchObject({
      tsSec: 1577836800,
      tsNsec: 500000000,
      ipVersion: 6,
      protocol: 58,
      src: "2001:db8::1",
      dst: "ff02::1",
      srcPort: 128,
      dstPort: 0,
      priority: 2,
      packetNumber: 7,
    });
  });
});

describe("EVE alert lines: what is refused and what is passed on", () => {
  const base = {
    timestamp: "2024-01-31T12:00:00.000001+0000",
    event_type: "alert",
    src_ip: "10.0.0.1",
    src_port: 1234,
    dest_ip: "10.0.0.2",
    dest_port: 80,
    proto: "TCP",
    alert: { action: "allowed", gid: 1, signature_id: 5, rev: 1, signature: "s", category: "c", severity: 2 },
  };
  const line = (change: (event: Record<string, unknown>) => void) => {
    const event: Record<string, unknown> = structuredClone(base);
    change(event);
    return JSON.stringify(event);
  };
  const source = { file: "e.json", line: 9 };

  it("names the file, line and member of a member with the wrong JSON type or a value that does not read", () => {
    const cases: [string, (e: Record<string, unknown>) => void, string][] = [
      ["src_ip", (e) => (e.src_ip = 7), '"src_ip" is 7, not a string'],
      ["dest_ip", (e) => (e.dest_ip = "10.0.0"), '"dest_ip" is "10.0.0", not an IP address'],
      ["timestamp", (e) => (e.timestamp = 1706702400), '"timestamp" is 1706702400, not a string'],
      ["timestamp", (e) => (e.timestamp = "yesterday"), '"timestamp" is "yesterday", not a time'],
      ["src_port", (e) => (e.src_port = "80"), '"src_port" is "80", not a whole number from 0 to 65535'],
      ["dest_port", (e) => (e.dest_port = -1), '"dest_port" is -1, not a whole number from 0 to 65535'],
      ["icmp_type", (e) => (e.icmp_type = 256), '"icmp_type" is 256, not a whole number from 0 to 255'],
      ["proto", (e) => (e.proto = true), '"proto" is true, not a protocol name or a number from 0 to 255'],
      ["alert", (e) => (e.alert = "x"), '"alert" is "x", not an object'],
      ["alert.severity", (e) => ((e.alert as Record<string, unknown>).severity = "high"), "not a whole number"],
      ["alert.signature_id", (e) => ((e.alert as Record<string, unknown>).signature_id = 1.5), "is 1.5"],
      ["alert.category", (e) => ((e.alert as Record<string, unknown>).category = ["a"]), "is an array, not a string"],
      ["alert.action", (e) => ((e.alert as Record<string, unknown>).action = null), "is null, not a string"],
      ["flow_id", (e) => (e.flow_id = "12"), '"flow_id" is "12", not a whole number'],
      ["pcap_cnt", (e) => (e.pcap_cnt = {}), '"pcap_cnt" is an object'],
      ["flow.start", (e) => (e.flow = { start: "soon" }), '"flow.start" is "soon", not a time'],
      ["tunnel.pcap_cnt", (e) => (e.tunnel = { pcap_cnt: -3 }), '"tunnel.pcap_cnt" is -3'],
      ["packet", (e) => (e.packet = "%%%%"), '"packet" is "%%%%", not base64 text'],
      ["packet_info.linktype", (e) => (e.packet_info = { linktype: "1" }), '"packet_info.linktype" is "1"'],
      ["src_ip", (e) => (e.src_ip = "x".repeat(1000)), '"src_ip" is a text of 1000 characters, not an IP address'],
      ["timestamp", (e) => delete e.timestamp, 'an alert without "timestamp"'],
      ["alert", (e) => delete e.alert, 'an alert without its "alert" object'],
      ["dest_ip", (e) => delete e.dest_ip, '"src_ip" without "dest_ip"'],
      ["dest_ip", (e) => (e.dest_ip = "::1"), '"src_ip" and "dest_ip" are of different IP versions'],
    ];
    for (const [member, change, message] of cases) {
      const text = line(change);
      let caught: unknown;
      try {
        parseEveAlertLine(text, undefined, source);
      } catch (error) {
        caught = error;
      }
      expect([text, caught]).toEqual([text, expect.objectContaining({ code: "BAD_INPUT" })]);
      const error = caught as TracemillError;
      expect(error.message.startsWith("e.json, line 9: "), error.message).toBe(true);
      expect(error.message).toContain(message);
      expect(error.context).toEqual({ file: "e.json", line: 9, member });
    }
  });

  it("passes on an alert without addresses with IP version 0, as Suricata writes one for a non-IP packet", () => {
    // Suricata 7.0.10 on a 7-byte Ethernet frame with rule `alert pkthdr any any -> any any (decode-event:
    // ethernet.pkt_too_small; sid:1;)`.
    const suricata =
      '{"timestamp":"1970-01-01T00:16:40.000000+0000","pcap_cnt":1,"event_type":"alert","pkt_src":"wire/pcap","alert":{"action":"allowed","gid":1,"signature_id":1,"rev":1,"signature":"eth too small","category":"","severity":3}}';
    expect(parseEveAlertLine(suricata)).toMatchObject({
      tsSec: 1000,
      ipVersion: 0,
      src: "",
      dst: "",
      protocol: 0,
      sid: 1,
      packetNumber: 1,
    });
  });

  it("ignores blank lines and other events, refuses lines that are not JSON objects", () => {
    expect(parseEveAlertLine("")).toBeUndefined();
    expect(parseEveAlertLine(" \t\r")).toBeUndefined();
    expect(parseEveAlertLine('{"event_type":"flow","x":1}')).toBeUndefined();
    expect(parseEveAlertLine(line((e) => (e.event_type = "http")))).toBeUndefined();
    expect(parseEveAlertLine(line((e) => delete e.event_type))).toBeUndefined();
    for (const text of ["garbage", "[1,2]", '"alert"', '["alert"]', "{ ", "null"]) {
      expect(() => parseEveAlertLine(text, undefined, source), text).toThrow(/^e\.json, line 9: not a JSON object$/);
    }
    expect(() => parseEveAlertLine('{"x":"alert"', undefined, source)).toThrow(/^e\.json, line 9: not JSON$/);
  });

  it("reads a protocol given as a number, and a name it does not know as 0", () => {
    expect(parseEveAlertLine(line((e) => (e.proto = 132)))?.protocol).toBe(132);
    expect(parseEveAlertLine(line((e) => (e.proto = "254")))?.protocol).toBe(254);
    expect(parseEveAlertLine(line((e) => (e.proto = "PIM")))?.protocol).toBe(0);
    expect(parseEveAlertLine(line((e) => (e.proto = "0x11")))?.protocol).toBe(0);
  });
});

describe("timestamps", () => {
  it("reads timestamps within one minute by position exactly as the full pattern does", () => {
    const minute = "2023-11-14T22:13";
    // The first sets the cached minute; the others take the positional path or, when odd, the pattern.
    const texts = [
      `${minute}:20.130155+0000`,
      `${minute}:59.999999+0000`,
      `${minute}:00.000001+0000`,
      `${minute}:07.5+0000`,
      `${minute}:07.123456+0130`,
      `${minute}:07.123456Z`,
      `${minute}:7x.123456+0000`,
      `${minute}:07.12345a+0000`,
      "2023-11-14T22:14:01.000002+0000",
      `${minute}:01.000003+0000`,
    ];
    const expected = texts.map((text) => {
      const m = /^(\d+)-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:\.(\d+))?(Z|[+-]\d{4})$/.exec(text);
      if (!m) return undefined;
      const offset = m[8] === "Z" ? 0 : (m[8][0] === "-" ? -1 : 1) * (+m[8].slice(1, 3) * 3600 + +m[8].slice(3) * 60);
      return {
        tsSec: Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) / 1000 - offset,
        tsNsec: Number((m[7] ?? "").padEnd(9, "0")),
      };
    });
    expect(texts.map((text) => parseEveTimestamp(text))).toEqual(expected);
    expect(expected.filter((e) => e === undefined)).toHaveLength(2);
  });

  it("parses EVE timestamps with offsets and any fraction length", () => {
    expect(parseEveTimestamp("1970-01-01T00:00:01.000000001Z")).toEqual({ tsSec: 1, tsNsec: 1 });
    expect(parseEveTimestamp("1970-01-01T00:00:00-01:30")).toEqual({ tsSec: 5400, tsNsec: 0 });
    expect(parseEveTimestamp("yesterday")).toBeUndefined();
    // Suricata prints six-digit years for captures whose timestamps it misreads; they still parse.
    expect(parseEveTimestamp("151991-03-04T05:06:07.5+0000")).toEqual({
      tsSec: Date.UTC(151991, 2, 4, 5, 6, 7) / 1000,
      tsNsec: 500_000_000,
    });
    expect(parseEveTimestamp("2009-11-24T18:15:24.414425+0000")).toEqual({ tsSec: 1259086524, tsNsec: 414425000 });
  });
});

// The pass's feature state with `length: "frame"`: a session's first packet, replayed from the record at its second
// packet or at its end, counts its frame length as the others do. Every column exact; expected rows come from the
// exact reference used for the core feature tests, not from this code.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { FEATURE_COLUMNS, RowBuilder, TcpFlag } from "@tracemill/core";
import { describe, expect, it } from "vitest";
import {
  capturedPacket,
  ethernet,
  fragments,
  ipv4,
  ipv6,
  pcapFile,
  tcp,
  udp,
} from "../../../core/src/testing/index.js";
import { runFlowPipeline } from "./flow-pipeline.js";

const BASE = 1_700_000_000;
const { SYN, ACK, PSH } = TcpFlag;

function framed(seconds: number, frame: Uint8Array) {
  const nanoseconds = Math.round(seconds * 1e9);
  return capturedPacket(frame, { linkType: 1, tsSec: BASE + Math.floor(nanoseconds / 1e9), tsNsec: nanoseconds % 1e9 });
}

function at(seconds: number, src: string, dst: string, layer: Parameters<typeof ipv4>[1]) {
  return framed(seconds, ethernet(ipv4({ src, dst }, layer)));
}

const packets = [
  // One packet: a SYN with a 4-byte option (IP length 44, frame 58).
  at(0, "10.9.0.1", "10.9.0.2", tcp({ srcPort: 45000, dstPort: 80, flags: SYN, options: [2, 4, 5, 180] })),
  // First packet a SYN-ACK (backward), the second backward too, the third forward.
  at(1, "10.9.0.4", "10.9.0.3", tcp({ srcPort: 443, dstPort: 46000, flags: SYN | ACK })),
  at(1.5, "10.9.0.4", "10.9.0.3", tcp({ srcPort: 443, dstPort: 46000, flags: PSH | ACK, payload: 100 })),
  at(2, "10.9.0.3", "10.9.0.4", tcp({ srcPort: 46000, dstPort: 443, flags: ACK })),
  // The second packet the same way, then one back.
  at(3, "10.9.0.5", "10.9.0.6", udp({ srcPort: 5000, dstPort: 53, payload: 20 })),
  at(3.25, "10.9.0.5", "10.9.0.6", udp({ srcPort: 5000, dstPort: 53, payload: 200 })),
  at(3.5, "10.9.0.6", "10.9.0.5", udp({ srcPort: 53, dstPort: 5000, payload: 10 })),
  // The second packet the other way.
  at(4, "10.9.0.7", "10.9.0.8", udp({ srcPort: 5001, dstPort: 53, payload: 30 })),
  at(4.001, "10.9.0.8", "10.9.0.7", udp({ srcPort: 53, dstPort: 5001, payload: 300 })),
];

async function rows(length: "ip" | "frame", capture = packets): Promise<string[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-pipeline-"));
  try {
    const input = path.join(dir, "input.pcap");
    fs.writeFileSync(input, pcapFile(capture, { nanosecond: true }));
    const row = new RowBuilder();
    const out: string[] = [];
    await runFlowPipeline(
      input,
      { length },
      {
        onSessionEnd(session, features) {
          row.start();
          features.write(session, row);
          row.end();
          out[session.seq] = new TextDecoder().decode(row.bytes.subarray(0, row.length)).trimEnd();
        },
      },
    );
    return out;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const record = (line: string) => Object.fromEntries(line.split(",").map((value, i) => [FEATURE_COLUMNS[i], value]));

describe("runFlowPipeline", () => {
  it("replays first packets with their frame lengths under length: frame", async () => {
    const expected = [
      "6,1700000000,10.9.0.1,45000,10.9.0.2,80,0,1,0,58,0,58,58,58,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,44,0,0,0,0,58,0,0,0,0,1,0,0,0,0,0,0",
      "6,1700000001,10.9.0.3,46000,10.9.0.4,443,1,1,2,54,208,54,54,54,0,54,154,104,70.710678,0,0,0,0,0,0.5,0.5,0.5,0.5,0,0,1,0,0,40,80,1,2,262,87.333333,57.735027,0.5,0,0,1,0,3,0,0,0,3.851852",
      "17,1700000003,10.9.0.5,5000,10.9.0.6,53,0.5,2,1,304,52,62,242,152,127.279221,52,52,52,0,0.25,0.25,0.25,0.25,0,0,0,0,0,0,0,0,0,0,56,28,4,2,712,118.666667,106.926766,0.25,0,0,0,0,0,0,0,0,0.171053",
      "17,1700000004,10.9.0.7,5001,10.9.0.8,53,0.001,1,1,72,342,72,72,72,0,342,342,342,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,28,28,1000,1000,414000,207,190.918831,0.001,0,0,0,0,0,0,0,0,4.75",
    ];
    const frame = await rows("frame");
    expect(frame.map(record)).toEqual(expected.map(record));
    // The same capture by IP length: every length column 14 bytes (the Ethernet header) less a packet.
    const ip = await rows("ip");
    expect(ip.map((line) => record(line).total_fpktl)).toEqual(["44", "40", "276", "58"]);
    expect(ip.map((line) => record(line).max_bpktl)).toEqual(["0", "140", "38", "328"]);
  });

  it("replays first packets that are first fragments with held fragments, and IPv6 extension headers", async () => {
    const vlan = { vlans: [{ id: 5 }] };
    const v4 = { src: "10.9.1.1", dst: "10.9.1.2" };
    // 308 UDP bytes in fragments of 128, 128 and 52: the later two arrive first and are held until the first.
    const [first, second, third] = fragments(v4, udp({ srcPort: 7000, dstPort: 53, payload: 300 }), 128);
    const v6 = { src: "2001:db8::3", dst: "2001:db8::4", extensionHeaders: [{ type: 0 as const }] };
    const [v6First, v6Second] = fragments(v6, udp({ srcPort: 5000, dstPort: 5001, payload: 200 }), 104);
    const withOptions = {
      src: "2001:db8::1",
      dst: "2001:db8::2",
      extensionHeaders: [{ type: 0 as const, length: 16 }, { type: 60 as const }],
    };
    const capture = [
      framed(0, ethernet(third, vlan)),
      framed(0.1, ethernet(second, vlan)),
      framed(0.2, ethernet(first, vlan)),
      framed(0.5, ethernet(ipv4({ src: v4.dst, dst: v4.src }, udp({ srcPort: 53, dstPort: 7000, payload: 10 })), vlan)),
      // One packet: IP length 40 + 16 + 8 + 24 + 12 = 100, headers 88.
      framed(
        1,
        ethernet(
          ipv6(withOptions, tcp({ srcPort: 40000, dstPort: 443, flags: SYN, options: [2, 4, 5, 180], payload: 12 })),
          vlan,
        ),
      ),
      framed(2, ethernet(v6Second, vlan)),
      framed(2.5, ethernet(v6First, vlan)),
    ];
    const ip = await rows("ip", capture);
    expect(ip.map(record)).toEqual(
      [
        "17,1700000000.2,10.9.1.1,7000,10.9.1.2,53,0.3,3,1,368,38,72,148,122.666667,43.87862,38,38,38,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,68,28,10,3.333333,1353.333333,101.5,55.458693,0.1,0.173205081,0,0,0,0,0,0,0,0.103261",
        "6,1700000001,2001:db8::1,40000,2001:db8::2,443,0,1,0,100,0,100,100,100,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,88,0,0,0,0,100,0,0,0,0,1,0,0,0,0,0,0",
        "17,1700000002.5,2001:db8::3,5000,2001:db8::4,5001,0,2,0,320,0,160,160,160,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,120,0,0,0,0,160,0,0,0,0,0,0,0,0,0,0,0",
      ].map(record),
    );
    // By frame: 18 bytes (Ethernet and the VLAN tag) more a packet.
    const frame = await rows("frame", capture);
    expect(frame.map(record)).toEqual(
      [
        "17,1700000000.2,10.9.1.1,7000,10.9.1.2,53,0.3,3,1,422,56,90,166,140.666667,43.87862,56,56,56,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,68,28,10,3.333333,1593.333333,119.5,55.458693,0.1,0.173205081,0,0,0,0,0,0,0,0.132701",
        "6,1700000001,2001:db8::1,40000,2001:db8::2,443,0,1,0,118,0,118,118,118,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,88,0,0,0,0,118,0,0,0,0,1,0,0,0,0,0,0",
        "17,1700000002.5,2001:db8::3,5000,2001:db8::4,5001,0,2,0,356,0,178,178,178,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,120,0,0,0,0,178,0,0,0,0,0,0,0,0,0,0,0",
      ].map(record),
    );
  });
});

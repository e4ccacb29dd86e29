// sanitize with the real Suricata on one TCP 5-tuple carried by several VLAN stacks at overlapping times: Suricata
// keys its flows by VLAN ids too, so only the stacks whose traffic alerted go to the attacks.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CapturedPacket, TcpFlag } from "@tracemill/core";
import { afterAll, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, sll2, tcp, type VlanTag } from "../../../core/src/testing/index.js";
import { suricataClassificationFile } from "../suricata/rulesets.js";
import { sanitize } from "./sanitize.js";
import { countAlerts, type PacketCopy, readPackets, splitDifference } from "./sanitize-testing.js";
import { suricataInput } from "./suricata-input.js";

const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

const { SYN, ACK, PSH } = TcpFlag;
const client = { src: "10.0.0.1", dst: "10.0.0.2" };
const server = { src: "10.0.0.2", dst: "10.0.0.1" };

/** Stacks as tshark shows them (vlan.id, outer first); "" is untagged. Only 10 and 100,10 carry the attack. */
const stacks: { name: string; tags: VlanTag[]; payload: string }[] = [
  { name: "10", tags: [{ id: 10 }], payload: "GET /EVILPAYLOAD" },
  { name: "20", tags: [{ id: 20 }], payload: "GET /index.html" },
  { name: "100,10", tags: [{ tpid: 0x88a8, id: 100 }, { id: 10 }], payload: "GET /EVILPAYLOAD" },
  { name: "100,20", tags: [{ tpid: 0x88a8, id: 100 }, { id: 20 }], payload: "GET /index.html" },
  { name: "", tags: [], payload: "GET /index.html" },
];

/**
 * A handshake, a request and its acknowledgement on every stack, each step on all stacks before the next; in Ethernet
 * frames, or in Linux cooked v2 ones (which Suricata reads through Tracemill's Ethernet copy).
 */
function capture(linkType: number): Uint8Array {
  const packets: CapturedPacket[] = [];
  const steps = [
    { from: client, flags: SYN, seq: 1000, ack: 0, data: false },
    { from: server, flags: SYN | ACK, seq: 5000, ack: 1001, data: false },
    { from: client, flags: ACK, seq: 1001, ack: 5001, data: false },
    { from: client, flags: PSH | ACK, seq: 1001, ack: 5001, data: true },
    { from: server, flags: ACK, seq: 5001, ack: 1017, data: false },
  ];
  let micro = 0;
  for (const step of steps) {
    for (const stack of stacks) {
      const toServer = step.from === client;
      const segment = tcp({
        srcPort: toServer ? 40000 : 80,
        dstPort: toServer ? 80 : 40000,
        flags: step.flags,
        seq: step.seq,
        ack: step.ack,
        payload: step.data ? new TextEncoder().encode(stack.payload.padEnd(16, " ")) : undefined,
      });
      const ether = ethernet(ipv4(step.from, segment), { vlans: stack.tags });
      const frame = linkType === 1 ? ether : sll2({ type: (ether[12] << 8) | ether[13], bytes: ether.subarray(14) });
      micro += 1000;
      packets.push(capturedPacket(frame, { linkType, tsSec: 1_700_000_000, tsNsec: micro * 1000 }));
    }
  }
  return pcapFile(packets);
}

/**
 * The packet's VLAN ids read from its bytes, as tshark lists them: the EtherType after the MAC addresses (Ethernet) or
 * first (Linux cooked v2, whose 20-byte header the first tag follows), then each 802.1Q / 802.1ad tag's.
 */
function vlanIds(p: PacketCopy): string {
  const ids: number[] = [];
  let typeAt = p.linkType === 1 ? 12 : 0;
  for (let tagAt = p.linkType === 1 ? 14 : 20; p.data[typeAt] === 0x81 || p.data[typeAt] === 0x88; tagAt += 4) {
    ids.push(p.data.readUInt16BE(tagAt) & 0x0fff);
    typeAt = tagAt + 2;
  }
  return ids.join(",");
}

it.each([
  ["Ethernet", 1],
  ["Linux cooked v2", 276],
])(
  "puts the alerted VLAN stacks' packets in attacks and the same 5-tuple on other stacks in clean (%s)",
  async (_name, linkType) => {
    const out = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-sanitize-vlan-"));
    dirs.push(out);
    const input = path.join(out, "vlans.pcap");
    fs.writeFileSync(input, capture(linkType));
    const rules = path.join(out, "evil.rules");
    fs.writeFileSync(rules, 'alert tcp any any -> any any (msg:"evil"; content:"EVILPAYLOAD"; sid:7; rev:1;)\n');

    const result = await sanitize(input, { ruleFiles: [rules] }, { outDir: out });
    const [packets, clean, attacks] = await Promise.all(
      [input, path.join(out, "clean.pcap"), path.join(out, "attacks.pcap")].map(readPackets),
    );
    expect(splitDifference(packets, clean, attacks)).toBe("");
    // By construction: 5 packets per stack; Suricata sees one session per stack and alerts on two requests.
    expect(result.summary).toMatchObject({
      alerts: { total: 2 },
      packets: { input: 25, clean: 15, attacks: 10 },
      sessions: { clean: 3, attacks: 2 },
      verified: true,
    });
    const byStack = (list: PacketCopy[]) => {
      const counts: Record<string, number> = Object.fromEntries(stacks.map((s) => [s.name, 0]));
      for (const p of list) counts[vlanIds(p)]++;
      return counts;
    };
    expect(byStack(attacks)).toEqual({ "10": 5, "20": 0, "100,10": 5, "100,20": 0, "": 0 });
    expect(byStack(clean)).toEqual({ "10": 0, "20": 5, "100,10": 0, "100,20": 5, "": 5 });
    // Suricata reads Linux cooked v2 only through the Ethernet copy.
    const readable = await suricataInput(path.join(out, "clean.pcap"), path.join(out, "clean-ethernet.pcap"));
    expect(await countAlerts(readable.file, [rules], suricataClassificationFile)).toBe(0);
  },
);

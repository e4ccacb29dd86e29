// Captures Suricata cannot read as they are (a pcapng file mixing Ethernet and loopback interfaces, Linux cooked v2):
// sanitize has Suricata read an Ethernet copy and still splits the capture itself exactly, by the alerts' packets.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CapturedPacket, LinkType, PcapngWriter } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, loopback, pcapFile, sll2, udp } from "../../../core/src/testing/index.js";
import { suricataClassificationFile } from "../suricata/rulesets.js";
import { runSuricataOnCapture } from "../suricata/suricata-run.js";
import { sanitize } from "./sanitize.js";
import { readPackets, splitDifference } from "./sanitize-testing.js";
import { suricataInput } from "./suricata-input.js";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-suricata-input-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const rules = path.join(dir, "test.rules");
fs.writeFileSync(rules, 'alert udp any any -> any 9999 (msg:"evil datagram"; content:"EVIL"; sid:1000001; rev:1;)\n');
const text = (s: string) => new TextEncoder().encode(s);

/** Three sessions: one to port 9999 carrying "EVIL" (and its answer), two harmless ones. */
const layers = [
  ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, udp({ srcPort: 40000, dstPort: 9999, payload: text("EVIL plans") })),
  ipv4({ src: "10.0.0.2", dst: "10.0.0.1" }, udp({ srcPort: 9999, dstPort: 40000, payload: text("ok") })),
  ipv4({ src: "10.0.0.1", dst: "10.0.0.3" }, udp({ srcPort: 40001, dstPort: 53, payload: text("query") })),
  ipv4({ src: "10.0.0.4", dst: "10.0.0.5" }, udp({ srcPort: 40002, dstPort: 9999, payload: text("fine") })),
];

function packets(frame: (i: number) => [Uint8Array, number, number]): CapturedPacket[] {
  return layers.map((_, i) => {
    const [bytes, linkType, interfaceIndex] = frame(i);
    return capturedPacket(bytes, { linkType, interfaceIndex, index: i, tsSec: 1_700_000_000 + i, tsNsec: 123 });
  });
}

/** A pcapng file declaring an interface of each of `linkTypes` (libpcap checks them, used or not). */
function pcapng(file: string, list: CapturedPacket[], linkTypes = [LinkType.ETHERNET, LinkType.NULL]): string {
  const chunks: Uint8Array[] = [];
  const writer = new PcapngWriter((chunk) => chunks.push(chunk), {
    interfaces: linkTypes.map((linkType) => ({ linkType })),
  });
  for (const packet of list) writer.write(packet);
  writer.finish();
  fs.writeFileSync(file, Buffer.concat(chunks));
  return file;
}

/** Ethernet and loopback packets in turn: libpcap refuses the file ("an interface has a type 0 different…"). */
const mixed = pcapng(
  path.join(dir, "mixed.pcapng"),
  packets((i) => (i % 2 === 0 ? [ethernet(layers[i]), LinkType.ETHERNET, 0] : [loopback(layers[i]), LinkType.NULL, 1])),
);
const cooked2 = path.join(dir, "cooked2.pcap");
fs.writeFileSync(cooked2, pcapFile(packets((i) => [sll2(layers[i]), LinkType.LINUX_SLL2, 0])));

describe("suricataInput", () => {
  it("gives Suricata a capture it reads as it is", async () => {
    const ethernetOnly = pcapng(
      path.join(dir, "ethernet.pcapng"),
      packets((i) => [ethernet(layers[i]), LinkType.ETHERNET, 0]),
      [LinkType.ETHERNET],
    );
    const copy = path.join(dir, "unused.pcap");
    expect(await suricataInput(ethernetOnly, copy)).toEqual({ file: ethernetOnly, framed: false });
    expect(fs.existsSync(copy)).toBe(false);
  });

  it("frames every packet of a mixed pcapng as Ethernet, one record each, in order", async () => {
    const copy = path.join(dir, "mixed-copy.pcap");
    expect(await suricataInput(mixed, copy)).toEqual({ file: copy, framed: true });
    const framed = await readPackets(copy);
    expect(framed.map((p) => [p.linkType, p.tsSec, p.tsNsec])).toEqual(
      layers.map((_, i) => [LinkType.ETHERNET, 1_700_000_000 + i, 123]),
    );
    expect(framed.map((p) => Array.from(p.data.subarray(14)))).toEqual(layers.map((l) => Array.from(l.bytes)));
  });
});

describe("sanitize of captures Suricata cannot read as they are", () => {
  for (const [name, capture, clean, attacks] of [
    ["a pcapng mixing Ethernet and loopback", mixed, "clean.pcapng", "attacks.pcapng"],
    ["a Linux cooked v2 pcap", cooked2, "clean.pcap", "attacks.pcap"],
  ] as const) {
    it(`splits ${name} by Suricata's alerts, keeping its link layers`, async () => {
      const out = fs.mkdtempSync(path.join(dir, "out-"));
      const result = await sanitize(capture, { ruleFiles: [rules] }, { outDir: out });
      const summary = result.summary as {
        suricata: { framedAsEthernet: boolean };
        alerts: { total: number };
        verified: boolean;
      };
      expect(summary.suricata.framedAsEthernet).toBe(true);
      expect(summary.alerts.total).toBe(1);
      expect(summary.verified).toBe(true);
      const [input, cleanPackets, attackPackets] = await Promise.all(
        [capture, path.join(out, clean), path.join(out, attacks)].map(readPackets),
      );
      expect(splitDifference(input, cleanPackets, attackPackets)).toBe("");
      // The alerted session is the first two packets, whichever interface they came through.
      expect(attackPackets.map((p) => p.tsSec - 1_700_000_000)).toEqual([0, 1]);
      expect(attackPackets.map((p) => p.linkType)).toEqual([input[0].linkType, input[1].linkType]);
    });
  }
});

describe("Suricata given a capture it cannot read", () => {
  // Without the Ethernet copy: Suricata's reader cannot start on Linux cooked v2. In single mode Suricata would wait
  // a minute before failing, in autofp it would skip the file and succeed with no alert; both fail at once instead.
  for (const runmode of ["single", "autofp"] as const) {
    it(`fails at once, with Suricata's reason, in ${runmode} mode`, async () => {
      const started = performance.now();
      const setup = {
        ruleFiles: [rules],
        classificationFile: suricataClassificationFile,
        homeNet: "any",
        externalNet: "any",
        runmode,
      };
      const run = runSuricataOnCapture(cooked2, setup, fs.mkdtempSync(path.join(dir, "run-")));
      await expect(run).rejects.toMatchObject({ code: "TOOL_FAILED" });
      await expect(run).rejects.toThrow(/could not read the capture: [\s\S]*datalink type 276/);
      expect(performance.now() - started).toBeLessThan(30_000);
    });
  }
});

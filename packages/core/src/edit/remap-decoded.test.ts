// The remapper on packets decoded by the real decoder: a rewritten packet must equal the packet built with the
// new addresses from the start (the builder computes every checksum itself), byte for byte.
import { describe, expect, it } from "vitest";
import { PacketDecoder } from "../decode/packet-decoder.js";
import { capturedPacket, ethernet, fragments, ipv4, ipv6, type Layer, tcp, udp } from "../testing/index.js";
import { AddressMap } from "./address-map.js";
import { AddressRemapper } from "./address-remapper.js";

const map = new AddressMap([
  { from: "10.0.0.5", to: "192.168.1.20" },
  { from: "10.0.0.9", to: "172.16.0.1" },
  { from: "2001:db8::5", to: "fd00::20" },
]);
const payload = Uint8Array.from({ length: 61 }, (_, i) => (i * 13 + 1) & 0xff);
const vlan = { vlans: [{ id: 42 }] };

/** Decodes `frame`, remaps it in place and returns it (truncated to `snaplen` when given). */
function remapped(frame: Uint8Array, snaplen?: number, remapper = new AddressRemapper(map)): Uint8Array {
  const packet = capturedPacket(frame.slice(), { linkType: 1, snaplen });
  remapper.remap(packet.data, new PacketDecoder().decode(packet));
  return packet.data;
}

describe("AddressRemapper on decoded packets", () => {
  it("IPv4/TCP in a VLAN", () => {
    const before = ethernet(
      ipv4({ src: "10.0.0.5", dst: "10.0.0.9" }, tcp({ srcPort: 1, dstPort: 80, payload })),
      vlan,
    );
    const after = ethernet(
      ipv4({ src: "192.168.1.20", dst: "172.16.0.1" }, tcp({ srcPort: 1, dstPort: 80, payload })),
      vlan,
    );
    expect(remapped(before)).toEqual(after);
  });

  it("IPv6/UDP behind hop-by-hop and destination options", () => {
    const ext = { extensionHeaders: [{ type: 0 as const }, { type: 60 as const, length: 16 }] };
    const body = udp({ srcPort: 53, dstPort: 5353, payload });
    const before = ethernet(ipv6({ src: "2001:db8::5", dst: "2001:db8::1", ...ext }, body));
    const after = ethernet(ipv6({ src: "fd00::20", dst: "2001:db8::1", ...ext }, body));
    expect(remapped(before)).toEqual(after);
  });

  it.each([
    ["IPv4", "10.0.0.9", "172.16.0.1"],
    ["IPv6", "2001:db8::5", "fd00::20"],
  ])("every %s fragment, the first one's transport checksum included", (_family, from, to) => {
    const other = from.includes(":") ? "2001:db8::77" : "10.0.0.77";
    const body = tcp({ srcPort: 1234, dstPort: 443, payload: 200 });
    const before = fragments({ src: from, dst: other }, body, 64).map((layer: Layer) => ethernet(layer));
    const after = fragments({ src: to, dst: other }, body, 64).map((layer: Layer) => ethernet(layer));
    expect(before.length).toBeGreaterThan(2);
    const remapper = new AddressRemapper(map);
    expect(before.map((frame) => remapped(frame, undefined, remapper))).toEqual(after);
  });

  it("a packet cut by the snaplen gets the checksum of the whole packet", () => {
    const build = (src: string) => ethernet(ipv4({ src, dst: "10.0.0.1" }, udp({ srcPort: 9, dstPort: 9, payload })));
    const remapper = new AddressRemapper(map, "recompute");
    expect(remapped(build("10.0.0.5"), 60, remapper)).toEqual(build("192.168.1.20").subarray(0, 60));
    expect(remapper.stats).toMatchObject({ packets: 1, checksumsAdjusted: 1, checksumsRecomputed: 0 });
  });
});

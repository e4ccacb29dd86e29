import { describe, expect, it } from "vitest";
import { isTracemillError } from "../errors.js";
import { formatIpAddress, requireIpAddress } from "../net/ip-address.js";
import { AddressMap } from "./address-map.js";
import { AddressRemapper, type RemapInput } from "./address-remapper.js";

// Packets are built here by hand (Ethernet + IP + transport) and checked by an independent, plain verifier.
const ETH = 14;

function sum16(bytes: number[]): number {
  let sum = 0;
  for (let i = 0; i < bytes.length; i += 2) sum += (bytes[i] << 8) | (bytes[i + 1] ?? 0);
  while (sum > 0xffff) sum = (sum & 0xffff) + (sum >>> 16);
  return sum;
}

/** True when the checksum over `bytes` (which include their checksum field) verifies. */
function verifies(bytes: number[]): boolean {
  return sum16(bytes) === 0xffff;
}

function pseudoHeader(packet: Uint8Array, v4: boolean, protocol: number, length: number): number[] {
  const addresses = v4 ? [...packet.slice(ETH + 12, ETH + 20)] : [...packet.slice(ETH + 8, ETH + 40)];
  return [...addresses, 0, protocol, (length >> 8) & 0xff, length & 0xff];
}

function setChecksum(packet: Uint8Array, at: number, covered: number[]): void {
  packet[at] = 0;
  packet[at + 1] = 0;
  const value = ~sum16(covered) & 0xffff;
  packet[at] = value >> 8;
  packet[at + 1] = value & 0xff;
}

interface Built {
  packet: Uint8Array;
  info: RemapInput;
}

/** IPv4 + TCP (protocol 6) or UDP (17) with valid checksums; `fragment` sets MF/offset fields. */
function ipv4(
  protocol: 6 | 17,
  src: string,
  dst: string,
  payload: number[],
  fragment = { mf: false, offset: 0 },
): Built {
  const transportLength = (protocol === 6 ? 20 : 8) + payload.length;
  const total = 20 + transportLength;
  const packet = new Uint8Array(ETH + total);
  packet[12] = 0x08;
  const ip = ETH;
  packet.set([0x45, 0, total >> 8, total & 0xff, 0x12, 0x34], ip);
  const flagsOffset = (fragment.mf ? 0x2000 : 0) | fragment.offset;
  packet.set([flagsOffset >> 8, flagsOffset & 0xff, 64, protocol], ip + 6);
  packet.set(requireIpAddress(src), ip + 12);
  packet.set(requireIpAddress(dst), ip + 16);
  const t = ip + 20;
  packet.set([0x30, 0x39, 0x00, 0x50], t);
  if (protocol === 6) packet.set([0, 0, 0, 1, 0, 0, 0, 0, 0x50, 0x18, 0x20, 0], t + 4);
  else packet.set([transportLength >> 8, transportLength & 0xff], t + 4);
  packet.set(payload, t + (protocol === 6 ? 20 : 8));
  setChecksum(packet, ip + 10, [...packet.slice(ip, ip + 20)]);
  const at = t + (protocol === 6 ? 16 : 6);
  setChecksum(packet, at, [...pseudoHeader(packet, true, protocol, transportLength), ...packet.slice(t)]);
  const info: RemapInput = {
    ipVersion: 4,
    ipOffset: ip,
    ipLength: total,
    ipHeaderLength: 20,
    protocol,
    transportOffset: t,
    isFragment: fragment.mf || fragment.offset > 0,
  };
  return { packet, info };
}

/** IPv6 + UDP (17) or ICMPv6 echo (58) with a valid checksum. */
function ipv6(protocol: 17 | 58, src: string, dst: string, payload: number[]): Built {
  const transportLength = 8 + payload.length;
  const packet = new Uint8Array(ETH + 40 + transportLength);
  packet.set([0x86, 0xdd], 12);
  const ip = ETH;
  packet.set([0x60, 0, 0, 0, transportLength >> 8, transportLength & 0xff, protocol, 64], ip);
  packet.set(requireIpAddress(src), ip + 8);
  packet.set(requireIpAddress(dst), ip + 24);
  const t = ip + 40;
  if (protocol === 17) packet.set([0x30, 0x39, 0x00, 0x35, transportLength >> 8, transportLength & 0xff], t);
  else packet.set([128, 0, 0, 0, 0, 7, 0, 1], t);
  packet.set(payload, t + 8);
  const at = t + (protocol === 17 ? 6 : 2);
  setChecksum(packet, at, [...pseudoHeader(packet, false, protocol, transportLength), ...packet.slice(t)]);
  const info: RemapInput = {
    ipVersion: 6,
    ipOffset: ip,
    ipLength: 40 + transportLength,
    ipHeaderLength: 40,
    protocol,
    transportOffset: t,
    isFragment: false,
  };
  return { packet, info };
}

function ipv4HeaderOk(packet: Uint8Array): boolean {
  return verifies([...packet.slice(ETH, ETH + 20)]);
}

function transportOk(packet: Uint8Array, info: RemapInput): boolean {
  const length = info.ipOffset + info.ipLength - info.transportOffset;
  const pseudo = pseudoHeader(packet, info.ipVersion === 4, info.protocol, length);
  return verifies([...pseudo, ...packet.slice(info.transportOffset, info.ipOffset + info.ipLength)]);
}

const payload = [...Array(37).keys()].map((i) => (i * 7 + 3) & 0xff);

describe("AddressRemapper", () => {
  const map = new AddressMap([
    { from: "10.0.0.5", to: "192.168.1.20" },
    { from: "10.0.0.9", to: "192.168.1.30" },
    { from: "2001:db8::5", to: "fd00::20" },
  ]);

  it("rewrites IPv4 source and destination and keeps the header and TCP checksums valid", () => {
    const { packet, info } = ipv4(6, "10.0.0.5", "10.0.0.9", payload);
    const remapper = new AddressRemapper(map);
    expect(remapper.remap(packet, info)).toBe(true);
    expect(formatIpAddress(packet.slice(ETH + 12, ETH + 16))).toBe("192.168.1.20");
    expect(formatIpAddress(packet.slice(ETH + 16, ETH + 20))).toBe("192.168.1.30");
    expect(ipv4HeaderOk(packet)).toBe(true);
    expect(transportOk(packet, info)).toBe(true);
    expect(remapper.stats).toMatchObject({ packets: 1, addresses: 2, checksumsAdjusted: 1 });
  });

  it("leaves packets without a mapped address untouched", () => {
    const { packet, info } = ipv4(6, "10.0.0.1", "10.0.0.2", payload);
    const before = packet.slice();
    expect(new AddressRemapper(map).remap(packet, info)).toBe(false);
    expect(packet).toEqual(before);
  });

  it("keeps a UDP checksum of zero (no checksum) over IPv4", () => {
    const { packet, info } = ipv4(17, "10.0.0.5", "10.0.0.1", payload);
    packet[info.transportOffset + 6] = 0;
    packet[info.transportOffset + 7] = 0;
    new AddressRemapper(map).remap(packet, info);
    expect([packet[info.transportOffset + 6], packet[info.transportOffset + 7]]).toEqual([0, 0]);
    expect(ipv4HeaderOk(packet)).toBe(true);
  });

  it.each([17, 58] as const)("rewrites IPv6 and keeps the protocol %i checksum valid", (protocol) => {
    const { packet, info } = ipv6(protocol, "2001:db8::1", "2001:db8::5", payload);
    expect(new AddressRemapper(map).remap(packet, info)).toBe(true);
    expect(formatIpAddress(packet.slice(ETH + 24, ETH + 40))).toBe("fd00::20");
    expect(transportOk(packet, info)).toBe(true);
  });

  it("gives a truncated packet the checksum of the whole packet on the wire", () => {
    const whole = ipv4(6, "10.0.0.5", "10.0.0.1", payload);
    const cut = whole.packet.slice(0, ETH + 20 + 20 + 5);
    new AddressRemapper(map).remap(whole.packet, whole.info);
    const remapper = new AddressRemapper(map, "recompute");
    remapper.remap(cut, whole.info);
    expect(cut).toEqual(whole.packet.slice(0, cut.length));
    expect(remapper.stats).toMatchObject({ checksumsAdjusted: 1, checksumsRecomputed: 0 });
  });

  it("fixes the IPv4 header when the transport checksum was not captured, and counts it", () => {
    const { packet, info } = ipv4(6, "10.0.0.5", "10.0.0.1", payload);
    const cut = packet.slice(0, ETH + 20 + 10);
    const remapper = new AddressRemapper(map);
    expect(remapper.remap(cut, info)).toBe(true);
    expect(ipv4HeaderOk(cut)).toBe(true);
    expect(remapper.stats.checksumsNotCaptured).toBe(1);
  });

  it("leaves a packet cut inside its addresses untouched, and counts it", () => {
    const { packet, info } = ipv4(6, "10.0.0.5", "10.0.0.1", payload);
    const cut = packet.slice(0, ETH + 17);
    const before = cut.slice();
    const remapper = new AddressRemapper(map);
    expect(remapper.remap(cut, info)).toBe(false);
    expect(cut).toEqual(before);
    expect(remapper.stats.addressesNotCaptured).toBe(1);
  });

  it("keeps a fragmented UDP datagram's checksum valid once reassembled", () => {
    const whole = ipv4(17, "10.0.0.9", "10.0.0.1", payload);
    const udp = whole.packet.slice(ETH + 20);
    // First fragment: UDP header + 16 bytes; second: the rest at offset 24 bytes (3 units of 8).
    const first = ipv4(17, "10.0.0.9", "10.0.0.1", [], { mf: true, offset: 0 });
    const firstPacket = new Uint8Array(ETH + 20 + 24);
    firstPacket.set(first.packet.slice(0, ETH + 20));
    firstPacket.set(udp.slice(0, 24), ETH + 20);
    const second = new Uint8Array(ETH + 20 + udp.length - 24);
    second.set(first.packet.slice(0, ETH + 20));
    second.set([0x00, 3], ETH + 6);
    second.set(udp.slice(24), ETH + 20);
    const remapper = new AddressRemapper(map, "recompute");
    remapper.remap(firstPacket, { ...first.info, ipLength: 44, isFragment: true });
    const secondBefore = second.slice(ETH + 20);
    remapper.remap(second, { ...first.info, ipLength: second.length - ETH, transportOffset: -1, isFragment: true });
    expect(second.slice(ETH + 20)).toEqual(secondBefore);
    const reassembled = new Uint8Array(ETH + 20 + udp.length);
    reassembled.set(firstPacket.slice(0, ETH + 20));
    reassembled.set(firstPacket.slice(ETH + 20), ETH + 20);
    reassembled.set(second.slice(ETH + 20), ETH + 44);
    expect(transportOk(reassembled, whole.info)).toBe(true);
    expect(formatIpAddress(reassembled.slice(ETH + 12, ETH + 16))).toBe("192.168.1.30");
  });

  it("recomputes a wrong checksum in recompute mode and keeps it wrong in adjust mode", () => {
    const adjust = ipv4(6, "10.0.0.5", "10.0.0.1", payload);
    adjust.packet[adjust.info.transportOffset + 16] ^= 0x55;
    const recompute = { packet: adjust.packet.slice(), info: adjust.info };
    new AddressRemapper(map, "adjust").remap(adjust.packet, adjust.info);
    new AddressRemapper(map, "recompute").remap(recompute.packet, recompute.info);
    expect(transportOk(adjust.packet, adjust.info)).toBe(false);
    expect(transportOk(recompute.packet, recompute.info)).toBe(true);
  });
});

describe("AddressMap", () => {
  function codeOf(run: () => unknown): string | undefined {
    try {
      run();
    } catch (error) {
      return isTracemillError(error) ? error.code : "other";
    }
    return undefined;
  }

  it("refuses a mapping across address families", () => {
    expect(codeOf(() => new AddressMap([{ from: "10.0.0.5", to: "fd00::1" }]))).toBe("BAD_OPTION");
  });

  it("refuses an address mapped twice, in any spelling", () => {
    const twice = [
      { from: "2001:db8::5", to: "fd00::1" },
      { from: "2001:DB8:0::5", to: "fd00::2" },
    ];
    expect(codeOf(() => new AddressMap(twice))).toBe("BAD_OPTION");
  });

  it("keeps the mappings in canonical text", () => {
    expect(new AddressMap([{ from: "2001:DB8:0:0::5", to: "fd00::0:1" }]).mappings).toEqual([
      { from: "2001:db8::5", to: "fd00::1" },
    ]);
  });
});

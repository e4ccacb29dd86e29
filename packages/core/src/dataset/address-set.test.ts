// Address sets: CIDR edges for IPv4 and IPv6 (/0, full-length, prefixes inside a word and across the sign bit), and
// the refusals, each naming its entry.
import { describe, expect, it } from "vitest";
import { TracemillError } from "../errors.js";
import { parseIpAddress } from "../net/ip-address.js";
import { AddressSet } from "./address-set.js";

function has(set: AddressSet, text: string): boolean {
  const bytes = parseIpAddress(text);
  if (bytes === undefined) throw new Error(`bad test address ${text}`);
  return set.has(bytes, bytes.length === 4 ? 4 : 16);
}

function set(...entries: string[]): AddressSet {
  return AddressSet.parse(entries, "victims");
}

describe("AddressSet, IPv4", () => {
  it("/0 holds every IPv4 address and no IPv6 one", () => {
    const all = set("0.0.0.0/0");
    for (const address of ["0.0.0.0", "127.255.255.255", "128.0.0.0", "255.255.255.255"])
      expect(has(all, address)).toBe(true);
    expect(has(all, "::")).toBe(false);
    expect(all.prefixesV4).toEqual([[0, 0]]);
  });

  it("an address, or /32, holds itself alone", () => {
    for (const one of [set("10.1.2.3"), set("10.1.2.3/32")]) {
      expect(has(one, "10.1.2.3")).toBe(true);
      expect(has(one, "10.1.2.2")).toBe(false);
      expect(has(one, "10.1.2.4")).toBe(false);
      expect(one.prefixesV4).toEqual([[(10 << 24) | (1 << 16) | (2 << 8) | 3, 32]]);
    }
  });

  it("holds a prefix's first and last address and neither neighbour", () => {
    const lan = set("192.168.10.0/24");
    expect([has(lan, "192.168.10.0"), has(lan, "192.168.10.255")]).toEqual([true, true]);
    expect([has(lan, "192.168.9.255"), has(lan, "192.168.11.0")]).toEqual([false, false]);
    const eight = set("10.0.0.0/8");
    expect([has(eight, "10.0.0.0"), has(eight, "10.255.255.255")]).toEqual([true, true]);
    expect([has(eight, "9.255.255.255"), has(eight, "11.0.0.0")]).toEqual([false, false]);
  });

  it("compares addresses above 128.0.0.0 as unsigned", () => {
    const top = set("128.0.0.0/1");
    expect([has(top, "128.0.0.0"), has(top, "255.255.255.255")]).toEqual([true, true]);
    expect(has(top, "127.255.255.255")).toBe(false);
    const last = set("255.255.255.254/31");
    expect([has(last, "255.255.255.254"), has(last, "255.255.255.255"), has(last, "255.255.255.253")]).toEqual([
      true,
      true,
      false,
    ]);
  });

  it("mixes addresses, prefixes and families", () => {
    const mixed = set("172.16.0.1", "205.174.165.64/28", "2001:db8::1");
    expect([has(mixed, "172.16.0.1"), has(mixed, "205.174.165.73"), has(mixed, "2001:db8::1")]).toEqual([
      true,
      true,
      true,
    ]);
    expect([has(mixed, "205.174.165.80"), has(mixed, "2001:db8::2")]).toEqual([false, false]);
  });
});

describe("AddressSet, IPv6", () => {
  it("::/0 holds every IPv6 address and no IPv4 one", () => {
    const all = set("::/0");
    for (const address of ["::", "::1", "8000::", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"])
      expect(has(all, address)).toBe(true);
    expect(has(all, "0.0.0.0")).toBe(false);
  });

  it("/128 holds itself alone", () => {
    const one = set("2001:db8::1/128");
    expect(one.prefixesV6).toEqual([[0x20010db8, 0, 0, 1, 128]]);
    expect(has(one, "2001:db8::1")).toBe(true);
    expect([has(one, "2001:db8::"), has(one, "2001:db8::2"), has(one, "2001:db9::1")]).toEqual([false, false, false]);
  });

  it("holds a prefix's edges, in and across words", () => {
    const doc = set("2001:db8::/32");
    expect([has(doc, "2001:db8::"), has(doc, "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")]).toEqual([true, true]);
    expect([has(doc, "2001:db7:ffff:ffff:ffff:ffff:ffff:ffff"), has(doc, "2001:db9::")]).toEqual([false, false]);
    const half = set("2001:db8:8000::/33");
    expect([has(half, "2001:db8:8000::"), has(half, "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff")]).toEqual([true, true]);
    expect(has(half, "2001:db8:7fff:ffff:ffff:ffff:ffff:ffff")).toBe(false);
    const link = set("fe80::/10");
    expect([has(link, "fe80::"), has(link, "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff")]).toEqual([true, true]);
    expect([has(link, "fec0::"), has(link, "fe7f:ffff:ffff:ffff:ffff:ffff:ffff:ffff")]).toEqual([false, false]);
    const last = set("::ffff:ffff:ffff:ff00/120");
    expect([
      has(last, "::ffff:ffff:ffff:ff00"),
      has(last, "::ffff:ffff:ffff:ffff"),
      has(last, "::ffff:ffff:ffff:feff"),
    ]).toEqual([true, true, false]);
  });
});

describe("AddressSet refusals", () => {
  function refusal(entries: unknown): { field: unknown; message: string } {
    try {
      AddressSet.parse(entries, "labels.schedule.windows[2].victims");
    } catch (error) {
      if (!(error instanceof TracemillError) || error.code !== "BAD_OPTION") throw error;
      return { field: error.context.field, message: error.message };
    }
    throw new Error("no error");
  }

  it.each([
    [["10.0.0.0/8", "10.0.0.1/24"], 1, /bits set past its \/24 prefix \(the network would be 10\.0\.0\.0\/24\)/],
    [["2001:db8::1/64"], 0, /the network would be 2001:db8::\/64/],
    [["0.0.0.1/0"], 0, /the network would be 0\.0\.0\.0\/0/],
    [["10.0.0.0/33"], 0, /IPv4 prefix length is a whole number from 0 to 32/],
    [["::/129"], 0, /IPv6 prefix length is a whole number from 0 to 128/],
    [["10.0.0.0/"], 0, /prefix length/],
    [["10.0.0.0/08"], 0, /prefix length/],
    [["10.0.0.0/8/8"], 0, /prefix length/],
    [["10.0.0"], 0, /not an IPv4 or IPv6 address or CIDR/],
    [["host.example"], 0, /not an IPv4 or IPv6 address or CIDR/],
    [["10.0.0.1", 42], 1, /is text, not 42/],
  ])("refuses %j at entry %i", (entries, i, why) => {
    const error = refusal(entries);
    expect(error.field).toBe(`labels.schedule.windows[2].victims[${i}]`);
    expect(error.message).toMatch(why);
  });

  it("refuses an empty list or no list", () => {
    expect(refusal([]).field).toBe("labels.schedule.windows[2].victims");
    expect(refusal("10.0.0.1").message).toMatch(/a list of at least one address/);
  });
});

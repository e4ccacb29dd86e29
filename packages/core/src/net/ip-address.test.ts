// IP address text: parsing IPv4/IPv6 and canonical RFC 5952 formatting.
import { describe, expect, it } from "vitest";
import { isTracemillError } from "../errors.js";
import { formatIpAddress, parseIpAddress, requireIpAddress } from "./ip-address.js";

describe("parseIpAddress / formatIpAddress", () => {
  it("reads dotted quads", () => {
    expect([...requireIpAddress("10.0.0.5")]).toEqual([10, 0, 0, 5]);
    expect([...requireIpAddress("255.255.255.255")]).toEqual([255, 255, 255, 255]);
  });

  it("reads IPv6 with compression and an IPv4 tail", () => {
    const bytes = requireIpAddress("2001:db8::1");
    expect(bytes.length).toBe(16);
    expect(formatIpAddress(bytes)).toBe("2001:db8::1");
    expect(formatIpAddress(requireIpAddress("::"))).toBe("::");
    expect(formatIpAddress(requireIpAddress("::ffff:10.1.2.3"))).toBe("::ffff:a01:203");
    expect(formatIpAddress(requireIpAddress("FE80:0:0:0:1:0:0:2"))).toBe("fe80::1:0:0:2");
    expect(formatIpAddress(requireIpAddress("1:2:3:4:5:6:7:8"))).toBe("1:2:3:4:5:6:7:8");
  });

  it("formats addresses canonically (RFC 5952) and rejects invalid ones", () => {
    const cases: [string, string][] = [
      ["::", "::"],
      ["1:0:0:2:0:0:0:3", "1:0:0:2::3"],
      ["::ffff:10.0.0.1", "::ffff:a00:1"],
      ["FE80:0:0:0:0:0:0:1", "fe80::1"],
      ["1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8"],
      ["10.1.2.3", "10.1.2.3"],
    ];
    for (const [text, canonical] of cases) expect(formatIpAddress(parseIpAddress(text) as Uint8Array)).toBe(canonical);
    for (const bad of ["1::2::3", "10.0.0.256", "1:2:3:4:5:6:7:8:9", "x"]) expect(parseIpAddress(bad)).toBeUndefined();
  });

  it.each([
    "10.0.0",
    "10.0.0.256",
    "010.0.0.1",
    "1::2::3",
    "1:2:3:4:5:6:7",
    "1:2:3:4:5:6:7:8:9",
    "g::1",
    "",
    "a:b",
    "1.2.3.4::",
  ])("refuses %s (undefined, or BAD_OPTION from requireIpAddress)", (text) => {
    expect(parseIpAddress(text)).toBeUndefined();
    let error: unknown;
    try {
      requireIpAddress(text);
    } catch (caught) {
      error = caught;
    }
    expect(isTracemillError(error) && error.code).toBe("BAD_OPTION");
  });

  it("refuses byte lengths other than 4 or 16", () => {
    expect(() => formatIpAddress(new Uint8Array(5))).toThrow(RangeError);
  });
});

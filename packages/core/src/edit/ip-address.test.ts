import { describe, expect, it } from "vitest";
import { isTracemillError } from "../errors.js";
import { formatIpAddress, parseIpAddress } from "./ip-address.js";

describe("parseIpAddress / formatIpAddress", () => {
  it("reads dotted quads", () => {
    expect([...parseIpAddress("10.0.0.5")]).toEqual([10, 0, 0, 5]);
    expect([...parseIpAddress("255.255.255.255")]).toEqual([255, 255, 255, 255]);
  });

  it("reads IPv6 with compression and an IPv4 tail", () => {
    const bytes = parseIpAddress("2001:db8::1");
    expect(bytes.length).toBe(16);
    expect(formatIpAddress(bytes)).toBe("2001:db8::1");
    expect(formatIpAddress(parseIpAddress("::"))).toBe("::");
    expect(formatIpAddress(parseIpAddress("::ffff:10.1.2.3"))).toBe("::ffff:a01:203");
    expect(formatIpAddress(parseIpAddress("FE80:0:0:0:1:0:0:2"))).toBe("fe80::1:0:0:2");
    expect(formatIpAddress(parseIpAddress("1:2:3:4:5:6:7:8"))).toBe("1:2:3:4:5:6:7:8");
  });

  it.each(["10.0.0", "10.0.0.256", "010.0.0.1", "1::2::3", "1:2:3:4:5:6:7", "1:2:3:4:5:6:7:8:9", "g::1", "", "a:b"])(
    "refuses %s",
    (text) => {
      let error: unknown;
      try {
        parseIpAddress(text);
      } catch (caught) {
        error = caught;
      }
      expect(isTracemillError(error) && error.code).toBe("BAD_OPTION");
    },
  );
});

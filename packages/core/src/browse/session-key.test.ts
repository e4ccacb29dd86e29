// The session search: ports, whole addresses in any spelling, the start of an address, every term on one side or the
// other; an IPT line's gaps read back.
import { describe, expect, it } from "vitest";
import { iptGapCount, iptGaps } from "./ipt-line.js";
import { matchesSession, parseSessionQuery, type SessionQuery, sessionKey, sessionKeyColumns } from "./session-key.js";

const v4 = sessionKey(["6", "1700000000.5", "10.1.2.3", "40000", "192.0.2.80", "80"]);
const v6 = sessionKey(["17", "1700000001", "2001:db8::1", "5353", "2001:db8::53", "53"]);

function query(text: string): SessionQuery {
  const parsed = parseSessionQuery(text);
  if ("error" in parsed) throw new Error(parsed.error);
  return parsed;
}

describe("the session search", () => {
  it("finds the key columns in a header and reads a row's session from them", () => {
    const header = ["x", "protocol", "ts", "srcIP", "srcPrt", "dstIP", "dstPrt"];
    expect(sessionKeyColumns(header)).toEqual([1, 2, 3, 4, 5, 6]);
    expect(sessionKeyColumns(["protocol", "ts"])).toBeNull();
    expect(v4).toEqual({
      protocol: 6,
      start: "1700000000.5",
      srcIP: "10.1.2.3",
      srcPort: 40000,
      dstIP: "192.0.2.80",
      dstPort: 80,
    });
    expect(sessionKey(["", "", "", "", "", "x"]).dstPort).toBeNull();
  });

  it("matches ports and addresses on either side, every term", () => {
    expect(matchesSession(v4, query("80"))).toBe(true);
    expect(matchesSession(v4, query("40000"))).toBe(true);
    expect(matchesSession(v4, query("53"))).toBe(false);
    expect(matchesSession(v4, query("192.0.2.80 80"))).toBe(true);
    expect(matchesSession(v4, query("192.0.2.80 443"))).toBe(false);
    expect(matchesSession(v4, query("10.1."))).toBe(true);
    expect(matchesSession(v4, query("10.1.2.30"))).toBe(false);
    expect(matchesSession(v4, query("10.1.2.3"))).toBe(true);
    expect(matchesSession(v6, query("2001:DB8:0:0::53"))).toBe(true);
    expect(matchesSession(v6, query("2001:DB8:"))).toBe(true);
    expect(matchesSession(v6, query("  "))).toBe(true);
    expect(parseSessionQuery("70000")).toEqual({ error: '"70000" is no port (0–65535) and no address' });
  });

  it("reads an IPT line's gaps, as many as asked, and counts them all", () => {
    expect(iptGaps("", 10)).toEqual({ values: [], count: 0 });
    expect(iptGaps("0.000125,2,-0,-1.5", 10)).toEqual({ values: [0.000125, 2, -0, -1.5], count: 4 });
    expect(iptGaps("1,2,3,4,5", 2)).toEqual({ values: [1, 2], count: 5 });
    expect(iptGaps("1,,3", 10)).toEqual({ bad: 2, text: "" });
    expect(iptGaps("1,x", 10)).toEqual({ bad: 2, text: "x" });
    expect(iptGapCount("")).toBe(0);
    expect(iptGapCount("1,2,3")).toBe(3);
  });
});

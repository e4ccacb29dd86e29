// CSV parsing behind the job details preview, and the column names and protocol names its charts look for.
import { describe, expect, it } from "vitest";
import { findColumn, parseCsv, protocolName } from "./csv.js";

describe("parseCsv", () => {
  it("reads quoted cells and drops a cut-off last line of a partial file", () => {
    const text = 'a,b\n1,"x, ""y"""\n2,z\n3,';
    expect(parseCsv(text, false)).toEqual({
      header: ["a", "b"],
      rows: [
        ["1", 'x, "y"'],
        ["2", "z"],
      ],
    });
    expect(parseCsv(text, true).rows).toHaveLength(3);
  });
  it("finds columns by any of their names, and names protocols by their numbers", () => {
    const table = parseCsv("Protocol,Label\n6,1\n17,0\n6,0\n", true);
    expect(findColumn(table.header, ["proto", "protocol"])).toBe(0);
    expect(findColumn(table.header, ["class"])).toBe(-1);
    expect(["6", "17", "1", "58", "132"].map(protocolName)).toEqual(["TCP", "UDP", "ICMP", "ICMPv6", "132"]);
  });
});

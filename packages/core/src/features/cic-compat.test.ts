// --cic-compat's key and set: the published header's names are the groups' columns in order, the cic set stays as it
// is, and CICFlowMeter's Timestamp text (dd/MM/yyyy hh:mm:ss a, here in UTC) at the hours a 12-hour clock turns.
import { describe, expect, it } from "vitest";
import { columnNames } from "./feature-set.js";
import { cicTimestamp } from "./groups/cic-key.js";
import { cic } from "./sets/cic.js";
import { CIC_COMPAT_KEY, CIC_IDS2017_COLUMNS, cicCompat } from "./sets/cic-compat.js";

describe("the --cic-compat columns", () => {
  it("are CIC-IDS2017's 84 before Label, spaces trimmed, the second Fwd Header Length the copy", () => {
    const names = columnNames([cicCompat], CIC_COMPAT_KEY);
    expect(names).toHaveLength(84);
    const trimmed = CIC_IDS2017_COLUMNS.map((name) => name.trim());
    expect(trimmed.indexOf("Fwd Header Length")).toBe(40);
    expect(trimmed.lastIndexOf("Fwd Header Length")).toBe(61);
    expect(names[61]).toBe("Fwd Header Length.1");
    expect(names.map((name, i) => (i === 61 ? "Fwd Header Length" : name))).toEqual(trimmed);
  });

  it("leave the cic set as it is: its own 76 columns, without the copy", () => {
    expect(cic.groups.map((group) => group.name)).not.toContain("cic-fwd-header-copy");
    expect(cicCompat.groups.filter((group) => group.name !== "cic-fwd-header-copy")).toEqual(cic.groups);
    expect(columnNames([cic])).toHaveLength(6 + 76);
  });
});

describe("CICFlowMeter's Timestamp in UTC", () => {
  // Epoch seconds worked out by hand: 2017-07-03 is day 17 350 (× 86 400 = 1 499 040 000).
  const DAY = 1_499_040_000;
  it.each([
    [0, "01/01/1970 12:00:00 AM"],
    [DAY, "03/07/2017 12:00:00 AM"],
    [DAY + 3_599, "03/07/2017 12:59:59 AM"],
    [DAY + 3_600, "03/07/2017 01:00:00 AM"],
    [DAY + 43_199, "03/07/2017 11:59:59 AM"],
    [DAY + 43_200, "03/07/2017 12:00:00 PM"],
    [DAY + 46_800, "03/07/2017 01:00:00 PM"],
    [DAY + 86_399, "03/07/2017 11:59:59 PM"],
    // 2017-12-31 is 181 days after 2017-07-03.
    [DAY + 181 * 86_400 + 79_200, "31/12/2017 10:00:00 PM"],
  ])("%i s is %s", (seconds, text) => {
    expect(cicTimestamp(seconds)).toBe(text);
  });
});

// Suricata's rule error lines as the summary keeps them: whole lines as they are, a line Suricata cut inside the rule
// file's path stopped before the path (no fragment of a server directory survives to be shown).
import { describe, expect, it } from "vitest";
import { ruleErrorLines } from "./suricata-run.js";

describe("ruleErrorLines", () => {
  it("keeps whole error lines, drops others, and stops a cut line before its path", () => {
    const whole =
      'E: detect: error parsing signature "alert tcp any any -> any any (x)" from file /srv/data/r/a.rules at line 3';
    const cut = `E: detect: error parsing signature "alert tcp any any -> any any (content:\\"${"A".repeat(1900)}\\")" from file /srv/da`;
    const text = [
      "Notice: suricata: This is Suricata version 7.0.10",
      whole,
      "E: detect: unknown rule keyword 'x'.",
      cut,
    ].join("\n");
    const lines = ruleErrorLines(text);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe(whole);
    expect(lines[1]).not.toContain("/srv");
    expect(lines[1]).toMatch(/\(the rest of Suricata's line, with the rule file, was cut\)$/);
  });
});

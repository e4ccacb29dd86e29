// Server paths out of what users see: inputs by name, outputs without their directory, rule files by ruleset.
import path from "node:path";
import { describe, expect, it } from "vitest";
import { installRoot } from "../install-root.js";
import { serverDirs, withoutServerPaths } from "./user-paths.js";

describe("withoutServerPaths", () => {
  const input = "/srv/data/work/j1/inputs/capture/day 1.pcap";
  const out = "/srv/data/jobs/j1/out";

  it("names inputs by file name and outputs without their directory", () => {
    expect(
      withoutServerPaths(`${input}: damaged capture at byte 116 (after 1 packet): truncated`, [input], [out]),
    ).toBe("day 1.pcap: damaged capture at byte 116 (after 1 packet): truncated");
    expect(withoutServerPaths(`${out}/features.csv: could not be written at byte 0`, [input], [`${out}/`])).toBe(
      "features.csv: could not be written at byte 0",
    );
  });

  it("rewrites every occurrence in JSON text, escaped characters included, and leaves the rest alone", () => {
    const quoted = '/srv/data/work/j1/inputs/attacks/"odd".pcap';
    const summary = { damage: { message: `${input}: bad; see ${quoted}` }, note: "/srv/data/other stays" };
    const text = withoutServerPaths(JSON.stringify(summary), [input, quoted], [out]);
    expect(JSON.parse(text)).toEqual({
      damage: { message: 'day 1.pcap: bad; see "odd".pcap' },
      note: "/srv/data/other stays",
    });
  });

  it("replaces a longer path before a shorter one it starts with", () => {
    const a = "/w/inputs/capture/a.pcap";
    const b = "/w/inputs/capture/a.pcap.extra";
    expect(withoutServerPaths(`${b} and ${a}`, [a, b], [])).toBe("a.pcap.extra and a.pcap");
  });
});

describe("serverDirs", () => {
  const dirs = serverDirs({ dataDir: "/srv/tm", rulesetsDir: "/srv/tm/rulesets" });

  it("names a rule file within its rulesets directory, bundled or the server's", () => {
    const error =
      'E: detect: error parsing signature "alert x" from file /srv/tm/rulesets/et-open/emerging-dos.rules at line 123';
    expect(withoutServerPaths(error, [], dirs)).toBe(
      'E: detect: error parsing signature "alert x" from file et-open/emerging-dos.rules at line 123',
    );
    const bundled = path.join(installRoot, "rules/default/tracemill.rules");
    expect(withoutServerPaths(`${bundled}:4`, [], dirs)).toBe("default/tracemill.rules:4");
  });

  it("shortens a directory named alone to its name and leaves longer names alone", () => {
    const text = `no ruleset "x" in ${installRoot}/rules or /srv/tm/rulesets; /srv/tmp/a and /srv/tm-b stay`;
    expect(withoutServerPaths(text, [], dirs)).toBe(
      'no ruleset "x" in rules or rulesets; /srv/tmp/a and /srv/tm-b stay',
    );
    expect(withoutServerPaths(`open '${installRoot}/packages/x.js'`, [], dirs)).toBe("open 'packages/x.js'");
  });
});

// A dataset job's parameters: the defaults docs/datasets.md states, and the refusals naming the field.
import { describe, expect, it } from "vitest";
import { datasetNameOf } from "./dataset-params.js";
import { datasetParams, inputRolesByCapability, listRolesByCapability, paramsByCapability } from "./jobs.js";
import { capabilities } from "./names.js";

/** The first problem's field and message, as the server words `Invalid parameter <field>: <message>`. */
function refusal(params: unknown): string | undefined {
  const parsed = datasetParams.safeParse(params);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return `${issue.path.join(".")}: ${issue.message}`;
}

const window = {
  class: "FTP-Patator",
  start: "2017-07-04 09:20",
  end: "2017-07-04 10:20",
  attackers: ["172.16.0.1"],
  victims: ["192.168.10.50"],
  ports: [21],
};

describe("dataset parameters", () => {
  it("is the seventh capability, reading its captures, attack captures and alert files as lists in one run", () => {
    expect(capabilities).toHaveLength(7);
    expect(capabilities).toContain("dataset");
    expect(paramsByCapability.dataset).toBe(datasetParams);
    expect(inputRolesByCapability.dataset).toEqual({
      required: ["capture"],
      optional: ["attacks", "alerts", "classification"],
    });
    expect(listRolesByCapability.dataset).toEqual({ capture: 256, attacks: 256, alerts: 64, provenance: 256 });
    expect(listRolesByCapability.extract).toBeUndefined();
  });

  it("fills in the spec's defaults: random 80/20 split with seed 1, depth-2 audit at 0.9 on 200 000 rows", () => {
    expect(datasetParams.parse({})).toEqual({
      features: ["tracemill"],
      idleTimeout: 120,
      activeTimeout: 1800,
      length: "ip",
      labels: { provenance: true, attackClasses: [] },
      split: {
        method: "random",
        splits: [
          { name: "train", fraction: 0.8 },
          { name: "test", fraction: 0.2 },
        ],
        seed: 1,
        hostKey: "both",
      },
      audit: { depth: 2, threshold: 0.9, sampleRows: 200_000, dropFlagged: false },
    });
  });

  it("fills in the defaults of a section given in part", () => {
    const parsed = datasetParams.parse({ split: { method: "host" }, audit: { dropFlagged: true } });
    expect(parsed.split).toMatchObject({ method: "host", seed: 1, hostKey: "both" });
    expect(parsed.audit).toEqual({ depth: 2, threshold: 0.9, sampleRows: 200_000, dropFlagged: true });
  });

  it("takes a schedule as CIC-IDS2017's authors wrote it, and attack classes by position", () => {
    const params = {
      features: ["tracemill", "cic"],
      labels: {
        precedence: ["schedule", "tuples"],
        attackClasses: ["DoS", "PortScan"],
        maxPriority: 2,
        schedule: {
          timezone: "America/Halifax",
          windows: [window, { ...window, ports: ["8000-8100"], attempted: true }],
        },
      },
      split: {
        method: "time",
        splits: [
          { name: "train", fraction: 0.6 },
          { name: "valid", fraction: 0.2 },
          { name: "test", fraction: 0.2 },
        ],
        seed: 7,
      },
    };
    expect(refusal(params)).toBeUndefined();
    expect(datasetParams.parse(params).labels.schedule?.windows[1].ports).toEqual(["8000-8100"]);
  });

  it("refuses what the spec refuses, naming the field", () => {
    const splits = (list: { name: string; fraction: number }[]) => ({ split: { splits: list } });
    expect(
      refusal(
        splits([
          { name: "train", fraction: 0.7 },
          { name: "test", fraction: 0.2 },
        ]),
      ),
    ).toBe("split.splits: the fractions must add up to 1");
    expect(
      refusal(
        splits([
          { name: "a", fraction: 0.5 },
          { name: "a", fraction: 0.5 },
        ]),
      ),
    ).toBe("split.splits: two splits have the same name");
    expect(
      refusal(
        splits([
          { name: "Train", fraction: 0.5 },
          { name: "test", fraction: 0.5 },
        ]),
      ),
    ).toBe("split.splits.0.name: a split's name is lowercase letters, digits, - or _");
    expect(refusal(splits([{ name: "all", fraction: 1 }]))).toMatch(/^split\.splits\.0\.fraction: /);
    expect(refusal({ split: { method: "week" } })).toMatch(/^split\.method: /);
    expect(refusal({ split: { seed: 2 ** 32 } })).toMatch(/^split\.seed: /);
    expect(refusal({ audit: { depth: 3 } })).toMatch(/^audit\.depth: /);
    expect(refusal({ audit: { threshold: 0 } })).toMatch(/^audit\.threshold: /);
    expect(refusal({ audit: { threshold: 1.01 } })).toMatch(/^audit\.threshold: /);
    expect(refusal({ audit: { sampleRows: 999 } })).toMatch(/^audit\.sampleRows: /);
    expect(refusal({ labels: { precedence: ["tuples", "tuples"] } })).toBe(
      "labels.precedence: a source is named twice",
    );
    expect(refusal({ labels: { precedence: ["guesswork"] } })).toMatch(/^labels\.precedence\.0: /);
    expect(refusal({ labels: { attackClasses: [""] } })).toMatch(/^labels\.attackClasses\.0: /);
    expect(refusal({ labels: { sources: [] } })).toMatch(/^labels: Unrecognized key: "sources"/);
    expect(refusal({ features: ["cic", "cic"] })).toBe("features: a feature set is named twice");
    expect(refusal({ splt: 0 })).toMatch(/^splt: /);
    expect(refusal({ splt: 256 })).toBeUndefined();
  });

  it("makes a job's title a dataset name", () => {
    expect(datasetNameOf("CIC-IDS2017 Tuesday")).toBe("CIC-IDS2017 Tuesday");
    expect(datasetNameOf("  «Week 1» / lab: v2.1 ")).toBe("Week 1 lab v2.1");
    expect(datasetNameOf("×××")).toBe("dataset");
    expect(datasetNameOf("a".repeat(150))).toHaveLength(100);
    expect(refusal({ name: "«x»" })).toBe("name: a name is letters, digits, spaces, . _ or -, up to 100");
  });

  it("refuses a schedule window without its parts, or with a port out of range", () => {
    const schedule = (w: object) => ({ labels: { schedule: { timezone: "UTC", windows: [w] } } });
    const { victims: _victims, ...withoutVictims } = window;
    expect(refusal(schedule(withoutVictims))).toMatch(/^labels\.schedule\.windows\.0\.victims: /);
    expect(refusal(schedule({ ...window, attackers: [] }))).toMatch(/^labels\.schedule\.windows\.0\.attackers: /);
    expect(refusal(schedule({ ...window, ports: [65536] }))).toMatch(/^labels\.schedule\.windows\.0\.ports\.0: /);
    expect(refusal(schedule({ ...window, ports: ["80-90x"] }))).toMatch(/^labels\.schedule\.windows\.0\.ports\.0: /);
    expect(refusal(schedule({ ...window, protocol: "icmp" }))).toMatch(/^labels\.schedule\.windows\.0\.protocol: /);
    expect(refusal(schedule({ ...window, colour: "red" }))).toMatch(/^labels\.schedule\.windows\.0: /);
    expect(refusal({ labels: { schedule: { timezone: "UTC", windows: [] } } })).toMatch(/^labels\.schedule\.windows: /);
  });
});

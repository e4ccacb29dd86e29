// The contracts mirror the engine's dataset spec (the contracts cannot import the engine): both must accept and refuse
// the same labelling, split and audit sections, and the spec a job's worker writes from its parameters must be one
// the engine reads.
import { datasetParams } from "@tracemill/contracts";
import { datasetSpecSchema, parseSpec } from "@tracemill/engine/dataset";
import { describe, expect, it } from "vitest";
import { datasetSpecOf } from "../src/jobs/dataset-run.js";

const window = {
  class: "FTP-Patator",
  start: "2017-07-04 09:20",
  end: "2017-07-04 10:20",
  attackers: ["172.16.0.1"],
  victims: ["192.168.10.50"],
};

/** Sections, each as the job's parameters and the spec hold it at the same place. */
const examples: Record<"split" | "audit" | "schedule" | "precedence" | "provenance", unknown[]> = {
  split: [
    {},
    { method: "host", hostKey: "source" },
    { method: "time", seed: 0 },
    { method: "campaign", seed: 2 ** 32 - 1 },
    { seed: 2 ** 32 },
    { seed: -1 },
    { seed: 1.5 },
    { method: "week" },
    { hostKey: "destination" },
    {
      splits: [
        { name: "train", fraction: 0.5 },
        { name: "test", fraction: 0.5 },
      ],
    },
    {
      splits: [
        { name: "a", fraction: 0.2 },
        { name: "b", fraction: 0.3 },
        { name: "c-1_x", fraction: 0.5 },
      ],
    },
    {
      splits: [
        { name: "train", fraction: 0.5 },
        { name: "test", fraction: 0.4 },
      ],
    },
    {
      splits: [
        { name: "train", fraction: 0.5 },
        { name: "train", fraction: 0.5 },
      ],
    },
    {
      splits: [
        { name: "Train", fraction: 0.5 },
        { name: "test", fraction: 0.5 },
      ],
    },
    {
      splits: [
        { name: "1st", fraction: 0.5 },
        { name: "test", fraction: 0.5 },
      ],
    },
    { splits: [{ name: "all", fraction: 1 }] },
    {
      splits: [
        { name: "a", fraction: 0 },
        { name: "b", fraction: 1 },
      ],
    },
    { splits: Array.from({ length: 9 }, (_, i) => ({ name: `s${i}`, fraction: 1 / 9 })) },
    { splits: Array.from({ length: 8 }, (_, i) => ({ name: `s${i}`, fraction: 1 / 8 })) },
    {
      splits: [
        { name: "a", fraction: 0.5, size: 3 },
        { name: "b", fraction: 0.5 },
      ],
    },
    { colour: "red" },
  ],
  audit: [
    {},
    { depth: 1 },
    { depth: 3 },
    { depth: 1.5 },
    { threshold: 1 },
    { threshold: 0 },
    { threshold: 0.0001 },
    { threshold: 1.01 },
    { sampleRows: 1000 },
    { sampleRows: 999 },
    { sampleRows: 10_000_000 },
    { sampleRows: 10_000_001 },
    { sampleRows: 5000.5 },
    { dropFlagged: true },
    { dropFlagged: "yes" },
    { trees: 2 },
  ],
  schedule: [
    { timezone: "America/Halifax", windows: [window] },
    {
      timezone: "UTC",
      windows: [{ ...window, id: "ftp", ports: [21, "8000-8100"], protocol: "tcp", attempted: true }],
    },
    { timezone: "UTC", windows: [{ ...window, timezone: "-03:00" }] },
    { timezone: "UTC", windows: [] },
    { timezone: "", windows: [window] },
    { windows: [window] },
    { timezone: "UTC", windows: [{ ...window, attackers: [] }] },
    { timezone: "UTC", windows: [{ ...window, victims: [""] }] },
    { timezone: "UTC", windows: [{ ...window, class: "" }] },
    { timezone: "UTC", windows: [{ ...window, class: "x".repeat(101) }] },
    { timezone: "UTC", windows: [{ ...window, ports: [] }] },
    { timezone: "UTC", windows: [{ ...window, ports: [65536] }] },
    { timezone: "UTC", windows: [{ ...window, ports: [-1] }] },
    { timezone: "UTC", windows: [{ ...window, ports: ["80-"] }] },
    { timezone: "UTC", windows: [{ ...window, protocol: "icmp" }] },
    { timezone: "UTC", windows: [{ ...window, attempted: "no" }] },
    { timezone: "UTC", windows: [{ ...window, label: "x" }] },
    { timezone: "UTC", windows: [window], comment: "x" },
  ],
  precedence: [["schedule"], ["alerts", "schedule", "tuples", "provenance"], [], ["tuples", "tuples"], ["guesses"]],
  provenance: [true, false, "yes"],
};

/** The job's parameters and the spec with one section set to `value`. */
function both(section: keyof typeof examples, value: unknown): [unknown, unknown] {
  const base = { captures: ["captures/a.pcap"] };
  if (section === "split" || section === "audit") return [{ [section]: value }, { ...base, [section]: value }];
  const labels = section === "schedule" ? { schedule: value } : { [section]: value };
  return [{ labels }, { ...base, labels }];
}

describe("dataset parameters and the engine's dataset spec", () => {
  for (const section of Object.keys(examples) as (keyof typeof examples)[]) {
    it(`accept and refuse the same ${section}`, () => {
      const answers = examples[section].map((value) => {
        const [params, spec] = both(section, value);
        return {
          value,
          contracts: datasetParams.safeParse(params).success,
          engine: datasetSpecSchema.safeParse(spec).success,
        };
      });
      expect(answers.filter((a) => a.contracts !== a.engine)).toEqual([]);
      // Each section's examples hold both answers, so the agreement means something.
      expect(new Set(answers.map((a) => a.engine))).toEqual(new Set([true, false]));
    });
  }

  it("write, from a job's parameters, a spec the engine reads as given", () => {
    const params = datasetParams.parse({
      name: "Week one",
      features: ["tracemill", "cic"],
      idleTimeout: 60,
      splt: 8,
      labels: {
        precedence: ["schedule"],
        attackClasses: ["DoS"],
        maxPriority: 2,
        tolerance: 1.5,
        schedule: { timezone: "America/Halifax", windows: [window] },
      },
      split: { method: "host", seed: 9 },
      audit: { depth: 1, dropFlagged: true },
    });
    const staged = {
      captures: ["captures/monday.pcap", "captures/monday (2).pcap"],
      attacks: ["attacks/dos.pcap", "attacks/scan.pcap"],
      alerts: ["alerts/eve.json"],
      classification: "classification/classification.config",
    };
    const spec = parseSpec(JSON.stringify(datasetSpecOf(params, staged)), "spec.json");
    expect(spec).toMatchObject({
      name: "Week one",
      captures: staged.captures,
      features: ["tracemill", "cic"],
      options: { idleTimeout: 60, activeTimeout: 1800, length: "ip", splt: 8 },
      labels: {
        precedence: ["schedule"],
        provenance: true,
        attacks: [
          { path: "attacks/dos.pcap", class: "DoS" },
          { path: "attacks/scan.pcap", class: "attack" },
        ],
        alerts: [
          {
            path: "alerts/eve.json",
            classification: "classification/classification.config",
            maxPriority: 2,
            tolerance: 1.5,
          },
        ],
        schedule: { timezone: "America/Halifax", windows: [window] },
      },
      split: { method: "host", seed: 9, hostKey: "both" },
      audit: { depth: 1, threshold: 0.9, sampleRows: 200_000, dropFlagged: true },
    });
  });
});

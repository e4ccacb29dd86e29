// The dataset spec: what a researcher writes (YAML or JSON) to build a dataset, validated field by field
// (docs/datasets.md, "The spec").
import { z } from "zod";

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/, "a SHA-256 is 64 lowercase hexadecimal digits");
const FILE = z.string().min(1, "a file path is needed");

/** A capture: its path (relative to the spec's folder), and its SHA-256 when the spec records it (a rebuild checks it). */
const captureSchema = z.union([FILE, z.strictObject({ path: FILE, sha256: SHA256.optional() })]);

const attackSchema = z.strictObject({
  path: FILE,
  /** The class of the sessions whose 5-tuple occurs in this capture. */
  class: z.string().min(1).max(100).default("attack"),
  sha256: SHA256.optional(),
});

const alertsSchema = z.strictObject({
  path: FILE,
  classification: FILE.optional(),
  maxPriority: z.int().min(1).optional(),
  tolerance: z.number().min(0).max(3600).optional(),
  sha256: SHA256.optional(),
});

const portSchema = z.union([
  z.int().min(0).max(65535),
  z.string().regex(/^\d{1,5}(-\d{1,5})?$/, 'a port is a number or a range such as "8000-8100"'),
]);

const windowSchema = z.strictObject({
  id: z.string().min(1).max(100).optional(),
  class: z.string().min(1).max(100),
  start: z.string().min(1),
  end: z.string().min(1),
  timezone: z.string().min(1).optional(),
  attackers: z.array(z.string().min(1)).min(1),
  victims: z.array(z.string().min(1)).min(1),
  ports: z.array(portSchema).min(1).optional(),
  protocol: z.enum(["tcp", "udp"]).optional(),
  attempted: z.boolean().optional(),
});

export const LABEL_SOURCE_KINDS = ["provenance", "tuples", "schedule", "alerts"] as const;
/** Which source labels a session that several match, first first (docs/datasets.md, "Precedence"). */
export const DEFAULT_PRECEDENCE: readonly (typeof LABEL_SOURCE_KINDS)[number][] = LABEL_SOURCE_KINDS;

const labelsSchema = z.strictObject({
  precedence: z
    .array(z.enum(LABEL_SOURCE_KINDS))
    .refine((list) => new Set(list).size === list.length, "a source is named twice")
    .optional(),
  /** Use a merge's provenance record found beside a capture (exact packet-level labels). */
  provenance: z.boolean().default(true),
  attacks: z.array(attackSchema).max(256).default([]),
  alerts: z.array(alertsSchema).max(64).default([]),
  schedule: z
    .strictObject({ timezone: z.string().min(1), windows: z.array(windowSchema).min(1).max(10000) })
    .optional(),
});

const splitSchema = z.strictObject({
  method: z.enum(["time", "host", "campaign", "random"]).default("random"),
  splits: z
    .array(
      z.strictObject({
        name: z.string().regex(/^[a-z][a-z0-9_-]{0,31}$/, "a split's name is lowercase letters, digits, - or _"),
        fraction: z.number().gt(0).lt(1),
      }),
    )
    .min(2)
    .max(8)
    .refine((list) => new Set(list.map((s) => s.name)).size === list.length, "two splits have the same name")
    .refine(
      (list) => Math.abs(list.reduce((sum, s) => sum + s.fraction, 0) - 1) < 1e-9,
      "the fractions must add up to 1",
    )
    .default([
      { name: "train", fraction: 0.8 },
      { name: "test", fraction: 0.2 },
    ]),
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
  hostKey: z.enum(["both", "source"]).default("both"),
});

const auditSchema = z.strictObject({
  depth: z.union([z.literal(1), z.literal(2)]).default(2),
  threshold: z.number().gt(0).max(1).default(0.9),
  /** Rows of each split the audit reads at most (a seeded sample beyond). */
  sampleRows: z.int().min(1000).max(10_000_000).default(200_000),
  dropFlagged: z.boolean().default(false),
});

export const datasetSpecSchema = z.strictObject({
  version: z.literal(1).default(1),
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/, "a name is letters, digits, spaces, . _ or -, up to 100")
    .default("dataset"),
  captures: z.array(captureSchema).min(1, "a dataset needs at least one capture").max(1024),
  features: z
    .array(z.enum(["tracemill", "cic", "nfstream"]))
    .min(1)
    .refine((list) => new Set(list).size === list.length, "a feature set is named twice")
    .default(["tracemill"]),
  options: z
    .strictObject({
      idleTimeout: z.number().gt(0).optional(),
      activeTimeout: z.number().gt(0).optional(),
      length: z.enum(["ip", "frame"]).optional(),
      splt: z.int().min(1).max(256).optional(),
    })
    .default({}),
  labels: labelsSchema.default({ provenance: true, attacks: [], alerts: [] }),
  split: splitSchema.default({
    method: "random",
    splits: [
      { name: "train", fraction: 0.8 },
      { name: "test", fraction: 0.2 },
    ],
    seed: 1,
    hostKey: "both",
  }),
  audit: auditSchema.default({ depth: 2, threshold: 0.9, sampleRows: 200_000, dropFlagged: false }),
  /** What a build recorded (dataset.json): read past when the file is built again. */
  built: z.unknown().optional(),
});

export type DatasetSpec = z.output<typeof datasetSpecSchema>;
export type ScheduleWindowInput = z.output<typeof windowSchema>;

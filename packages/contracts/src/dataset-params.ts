// A dataset job's labelling, split and audit parameters: the dataset spec's sections (docs/datasets.md, "The spec")
// as a job takes them, with its files given as inputs rather than paths. The contracts cannot import the engine, so
// these mirror its spec schema; apps/server/test/dataset-params.test.ts holds the two to the same answers.
import { z } from "zod";

/** The labelling sources, in the default order of precedence (most exact first). */
export const labelSources = ["provenance", "tuples", "schedule", "alerts"] as const;
export type LabelSource = (typeof labelSources)[number];

export const splitMethods = ["time", "host", "campaign", "random"] as const;
export type SplitMethodName = (typeof splitMethods)[number];

/** A dataset's name, its card's title. */
export const DATASET_NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,99}$/;
export const datasetName = z.string().regex(DATASET_NAME, "a name is letters, digits, spaces, . _ or -, up to 100");

/** A job title made a dataset name: other characters become spaces (one between words), at most 100; "dataset" when nothing is left. */
export function datasetNameOf(title: string): string {
  const name = title
    .replace(/[^A-Za-z0-9 ._-]+/g, " ")
    .replace(/ {2,}/g, " ")
    .replace(/^[^A-Za-z0-9]+/, "")
    .slice(0, 100)
    .trimEnd();
  return DATASET_NAME.test(name) ? name : "dataset";
}

/** A class name as a source gives it (an attack capture's, a window's). */
export const datasetClassName = z.string().min(1).max(100);

export const schedulePort = z.union([
  z.int().min(0).max(65535),
  z.string().regex(/^\d{1,5}(-\d{1,5})?$/, 'a port is a number or a range such as "8000-8100"'),
]);

/** One time window of an attack schedule; times are read in the schedule's (or the window's) time zone. */
export const scheduleWindow = z.strictObject({
  id: z.string().min(1).max(100).optional(),
  class: datasetClassName,
  start: z.string().min(1),
  end: z.string().min(1),
  timezone: z.string().min(1).optional(),
  attackers: z.array(z.string().min(1)).min(1),
  victims: z.array(z.string().min(1)).min(1),
  ports: z.array(schedulePort).min(1).optional(),
  protocol: z.enum(["tcp", "udp"]).optional(),
  attempted: z.boolean().optional(),
});
export type ScheduleWindow = z.infer<typeof scheduleWindow>;

export const MAX_SCHEDULE_WINDOWS = 10_000;
export const labelSchedule = z.strictObject({
  timezone: z.string().min(1),
  windows: z.array(scheduleWindow).min(1).max(MAX_SCHEDULE_WINDOWS),
});
export type LabelSchedule = z.infer<typeof labelSchedule>;

/** Attack captures and alert files a dataset job may take (the spec's own limits). */
export const MAX_DATASET_ATTACKS = 256;
export const MAX_DATASET_ALERTS = 64;

export const datasetLabels = z.strictObject({
  precedence: z
    .array(z.enum(labelSources))
    .refine((list) => new Set(list).size === list.length, "a source is named twice")
    .optional(),
  /** Use a merge's provenance record when a capture is a merge job's output (exact packet-level labels). */
  provenance: z.boolean().default(true),
  /** The class of each `attacks` input, by position; an attack capture without one is "attack". */
  attackClasses: z.array(datasetClassName).max(MAX_DATASET_ATTACKS).default([]),
  /** Alerts of priority 1 to N only (every `alerts` input); absent: all. */
  maxPriority: z.int().min(1).optional(),
  /** Seconds an alert's time may lie outside its session (every `alerts` input); absent: the engine's. */
  tolerance: z.number().min(0).max(3600).optional(),
  schedule: labelSchedule.optional(),
});

export const SPLIT_NAME = /^[a-z][a-z0-9_-]{0,31}$/;
export const DEFAULT_SPLITS = [
  { name: "train", fraction: 0.8 },
  { name: "test", fraction: 0.2 },
];

export const datasetSplit = z.strictObject({
  method: z.enum(splitMethods).default("random"),
  splits: z
    .array(
      z.strictObject({
        name: z.string().regex(SPLIT_NAME, "a split's name is lowercase letters, digits, - or _"),
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
    .default(DEFAULT_SPLITS),
  seed: z
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .default(1),
  hostKey: z.enum(["both", "source"]).default("both"),
});

export const datasetAudit = z.strictObject({
  depth: z.union([z.literal(1), z.literal(2)]).default(2),
  threshold: z.number().gt(0).max(1).default(0.9),
  /** Rows of each split the audit reads at most (a seeded sample beyond). */
  sampleRows: z.int().min(1000).max(10_000_000).default(200_000),
  dropFlagged: z.boolean().default(false),
});

// Pictures of an images or IPT output, read by the server over the whole output (docs/api.md, "Image gallery" and
// "IPT series"): a page of images with the session behind each pixel row, and sessions found by address and port with
// their inter-packet times.
import { z } from "zod";

export const DEFAULT_GALLERY_PAGE = 24;
export const MAX_GALLERY_PAGE = 100;
/** A page holds at most this many pixel rows' sessions: fewer images per page when images are tall. */
export const MAX_GALLERY_PAGE_ROWS = 4096;
export const MAX_IPT_SESSIONS_PAGE = 100;
/** Rows one search request looks at before it answers with where to go on. */
export const IPT_SEARCH_SCAN_ROWS = 200_000;
export const MAX_IPT_SERIES = 8;
/** Gaps sent per series: more would not show on a chart a few hundred pixels wide anyway. */
export const MAX_IPT_GAPS = 5000;

/** A query's parameters, or messages naming each one that is wrong and why (the explorer's wording). */
function parseQuery<S extends z.ZodObject>(schema: S, raw: unknown): { query: z.output<S> } | { messages: string[] } {
  const parsed = schema.safeParse(raw ?? {});
  if (parsed.success) return { query: parsed.data };
  const known = Object.keys(schema.shape).join(", ");
  return {
    messages: parsed.error.issues.map((issue) =>
      issue.code === "unrecognized_keys"
        ? `Unknown query parameter ${issue.keys.join(", ")} (the parameters are ${known})`
        : `Invalid query parameter ${issue.path.join(".")}: ${issue.message}`,
    ),
  };
}

/** The session behind a row, from its feature CSV's key columns. */
export const sessionKey = z.object({
  protocol: z.number().nullable(),
  /** The first packet's time: seconds since 1970 (UTC), as the CSV writes it. */
  start: z.string(),
  srcIP: z.string(),
  srcPort: z.number().nullable(),
  dstIP: z.string(),
  dstPort: z.number().nullable(),
});
export type SessionKeyView = z.infer<typeof sessionKey>;

/** GET …/images?offset=&limit= */
export const galleryQuery = z.strictObject({
  offset: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(MAX_GALLERY_PAGE).default(DEFAULT_GALLERY_PAGE),
});
export type GalleryQuery = z.input<typeof galleryQuery>;
export const parseGalleryQuery = (raw: unknown) => parseQuery(galleryQuery, raw);

export const galleryRow = z.object({
  /** Pixel row, 0 at the top. */
  row: z.number(),
  /** The session's data row in features.csv (1-based). */
  csvRow: z.number(),
  /** The manifest's label columns for the row (labelColumns), empty when the zip is not labelled. */
  labels: z.array(z.string()),
  session: sessionKey.nullable(),
});
export type GalleryRow = z.infer<typeof galleryRow>;

export const galleryImage = z.object({
  /** The number in its name; GET …/images/:number answers its PNG. */
  number: z.number(),
  name: z.string(),
  rows: z.array(galleryRow),
});
export type GalleryImage = z.infer<typeof galleryImage>;

/** GET /api/jobs/:id/outputs/:name/images */
export const galleryPage = z.object({
  output: z.string(),
  /** Images in the zip, and sessions drawn in them. */
  total: z.number(),
  sessions: z.number(),
  /** The manifest's label columns: `label`, or `label`, `class_id`, `class`; none when unlabelled. */
  labelColumns: z.array(z.string()),
  offset: z.number(),
  /** The page's size: the one asked for, or less when images are tall (MAX_GALLERY_PAGE_ROWS). */
  limit: z.number(),
  nextOffset: z.number().nullable(),
  images: z.array(galleryImage),
});
export type GalleryPage = z.infer<typeof galleryPage>;

/** GET …/sessions?q=&from=&limit=&minPackets= */
export const iptSessionsQuery = z.strictObject({
  /** Ports and addresses (or their starts), apart by spaces; every one must match. */
  q: z.string().max(500).default(""),
  from: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_IPT_SESSIONS_PAGE).default(20),
  minPackets: z.coerce.number().int().min(1).default(1),
});
export type IptSessionsQuery = z.input<typeof iptSessionsQuery>;
export const parseIptSessionsQuery = (raw: unknown) => parseQuery(iptSessionsQuery, raw);

export const iptSession = z.object({
  /** The session's line in the IPT output and data row in its CSV (1-based). */
  row: z.number(),
  session: sessionKey,
  packets: z.number(),
});
export type IptSession = z.infer<typeof iptSession>;

/** GET /api/jobs/:id/outputs/:name/sessions */
export const iptSessionPage = z.object({
  output: z.string(),
  /** Sessions in the output. */
  total: z.number(),
  sessions: z.array(iptSession),
  /** Where the search goes on (`from`); null when it reached the end. */
  nextFrom: z.number().nullable(),
});
export type IptSessionPage = z.infer<typeof iptSessionPage>;

/** GET …/series?rows=3,17 */
export const iptSeriesQuery = z.strictObject({
  rows: z
    .string()
    .regex(/^\d+(,\d+)*$/, "data rows as numbers apart by commas, such as 3,17")
    .transform((text) => [...new Set(text.split(",").map(Number))])
    .refine((rows) => rows.length <= MAX_IPT_SERIES, `at most ${MAX_IPT_SERIES} sessions at a time`)
    .refine((rows) => rows.every((row) => row >= 1), "rows count from 1"),
});
export const parseIptSeriesQuery = (raw: unknown) => parseQuery(iptSeriesQuery, raw);

export const iptSeries = iptSession.extend({
  /** The first gaps in seconds, in packet order (negative: ended by the backward side, in a signed output). */
  gaps: z.array(z.number()),
});
export type IptSeries = z.infer<typeof iptSeries>;

/** GET /api/jobs/:id/outputs/:name/series */
export const iptSeriesAnswer = z.object({
  output: z.string(),
  /** Gaps sent per series at most (a session's `packets` says how many it has). */
  maxGaps: z.number(),
  series: z.array(iptSeries),
});
export type IptSeriesAnswer = z.infer<typeof iptSeriesAnswer>;

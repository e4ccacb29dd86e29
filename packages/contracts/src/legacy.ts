// Payloads of the original product's calls (SPEC.md §7) as Tracemill accepts them; see docs/api.md.
import { z } from "zod";
import { jobMessages } from "./jobs.js";

/** /dataSet/, /delete and /dowload name a dataset by _id. */
export const legacyIdRequest = z.object({ _id: z.string({ error: "_id is required" }).min(1, "_id is required") });

/** /dowload: one output by name, or every output as a zip when `file` is absent. */
export const legacyDownloadRequest = legacyIdRequest.extend({ file: z.string().min(1).optional() });

/** PUT /update: the dataset's _id and the fields to change. */
export const legacyUpdateRequest = legacyIdRequest.extend({
  title: z.string().trim().min(1, jobMessages.titleRequired).max(200).optional(),
  description: z.string().max(5000).optional(),
  public: z.boolean().optional(),
});

/**
 * The capability calls (/extract/features, /clear/dataset, …): the dataset's fields, the ids of files uploaded with
 * /upfile (file), /upfile/badtrafic (badTraffic) and /upfile/u2 (u2), and optional parameters.
 */
export const legacyCapabilityRequest = z.object({
  title: z.string({ error: jobMessages.titleRequired }).trim().min(1, jobMessages.titleRequired).max(200),
  description: z.string().max(5000).default(""),
  public: z.boolean().default(false),
  file: z.string({ error: `${jobMessages.inputRequired} file` }).min(1, `${jobMessages.inputRequired} file`),
  badTraffic: z.string().min(1).optional(),
  u2: z.string().min(1).optional(),
  classification: z.string().min(1).optional(),
  params: z.record(z.string(), z.unknown()).default({}),
});
export type LegacyCapabilityRequest = z.input<typeof legacyCapabilityRequest>;

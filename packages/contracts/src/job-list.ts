// The job lists' query (search, filters, sort, page) and their answer, shared by the server's /api/jobs and
// /api/jobs/public and the web app's table, which keeps the same query in its address.
import { z } from "zod";
import { capability, job } from "./jobs.js";
import {
  type Capability,
  capabilities,
  capabilityNames,
  defaultOrder,
  JOB_PAGE_SIZE,
  jobOutcomes,
  jobSortKeys,
  MAX_JOB_PAGE_SIZE,
  type SortOrder,
} from "./names.js";

const MAX_SEARCH_LENGTH = 200;

const count = (max?: number) => {
  const whole = z.coerce.number().int().min(0);
  return max === undefined ? whole : whole.max(max);
};

/** The query string of GET /api/jobs and /api/jobs/public; every parameter is optional. */
export const jobListQuery = z.strictObject({
  /** Words matched, case aside, anywhere in the title, an input file's name, or the capability (id or name). */
  q: z
    .string()
    .max(MAX_SEARCH_LENGTH)
    .transform((text) => text.trim())
    .optional(),
  capability: capability.optional(),
  status: z.enum(jobOutcomes).optional(),
  sort: z.enum(jobSortKeys).default("created"),
  order: z.enum(["asc", "desc"]).optional(),
  limit: count(MAX_JOB_PAGE_SIZE).min(1).default(JOB_PAGE_SIZE),
  offset: count().default(0),
});
export type JobListQuery = z.input<typeof jobListQuery>;

/** A parsed query: the order filled in from the sort, an empty search left out. */
export type JobListRequest = Omit<z.output<typeof jobListQuery>, "order" | "q"> & { order: SortOrder; q?: string };

/** One page of a job list: the jobs, how many match in all, and where the next page starts (null on the last). */
export const jobPage = z.object({
  jobs: z.array(job),
  total: z.number(),
  offset: z.number(),
  limit: z.number(),
  nextOffset: z.number().nullable(),
});
export type JobPage = z.infer<typeof jobPage>;

/** The query, or messages naming each parameter that is wrong and why. */
export function parseJobListQuery(raw: unknown): { query: JobListRequest } | { messages: string[] } {
  const parsed = jobListQuery.safeParse(raw ?? {});
  if (!parsed.success) {
    const known = Object.keys(jobListQuery.shape).join(", ");
    return {
      messages: parsed.error.issues.map((issue) =>
        issue.code === "unrecognized_keys"
          ? `Unknown query parameter ${issue.keys.join(", ")} (the parameters are ${known})`
          : `Invalid query parameter ${issue.path.join(".")}: ${issue.message}`,
      ),
    };
  }
  const { q, order, ...rest } = parsed.data;
  return { query: { ...rest, order: order ?? defaultOrder(rest.sort), ...(q ? { q } : {}) } };
}

/** The capabilities a search names, by id or by name, case aside. */
export function capabilitiesMatching(search: string): Capability[] {
  const text = search.toLowerCase();
  return capabilities.filter((c) => c.includes(text) || capabilityNames[c].toLowerCase().includes(text));
}

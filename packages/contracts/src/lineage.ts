// A job's lineage (GET /api/jobs/:id/lineage): the jobs whose outputs it read, recursively, and the jobs that read
// its outputs, as nodes and edges. Only jobs the viewer may read appear.
import { z } from "zod";
import { capability, inputRole, jobStatus } from "./jobs.js";

/** How far back the ancestors are followed, and how many levels of jobs that used the outputs are shown. */
export const LINEAGE_ANCESTOR_DEPTH = 20;
export const LINEAGE_DESCENDANT_DEPTH = 2;

export const lineageNode = z.object({
  id: z.string(),
  title: z.string(),
  capability,
  status: jobStatus,
  /** A succeeded job whose result is suspect (its result warnings), as the job lists show it. */
  warning: z.boolean(),
  isOwner: z.boolean(),
});
export type LineageNode = z.infer<typeof lineageNode>;

/** Job `to` read `output` of job `from` as its input of `role`. */
export const lineageEdge = z.object({ from: z.string(), to: z.string(), output: z.string(), role: inputRole });
export type LineageEdge = z.infer<typeof lineageEdge>;

export const jobLineage = z.object({ nodes: z.array(lineageNode), edges: z.array(lineageEdge) });
export type JobLineage = z.infer<typeof jobLineage>;

// A job's lineage as a viewer may see it: the jobs whose outputs it read, recursively (bounded), and the jobs that read
// its outputs, a level or two down. A job the viewer may not read is left out with its edges, and the walk does not go
// past it: another user's private job is never named, not even by its id.
import {
  type Capability,
  type InputRole,
  type JobLineage,
  type JobStatus,
  LINEAGE_ANCESTOR_DEPTH,
  LINEAGE_DESCENDANT_DEPTH,
  type LineageEdge,
  type LineageNode,
} from "@tracemill/contracts";
import type { JobBrief, JobsRepository } from "../repositories/jobs.js";
import type { LineageLink, LineageRepository } from "../repositories/lineage.js";

/** Whether a viewer (null: signed out) may read a job: a public one, or their own. */
export const readableBy =
  (viewerId: string | null) =>
  (job: Pick<JobBrief, "public" | "owner_id">): boolean =>
    job.public === 1 || job.owner_id === viewerId;

export interface LineageDepths {
  /** Levels of ancestors followed at most (a chain longer than this is cut, never an endless walk). */
  ancestors: number;
  /** Levels of jobs that used the outputs. */
  descendants: number;
}

export async function jobLineage(
  repositories: { jobs: Pick<JobsRepository, "briefsOf">; lineage: LineageRepository },
  start: JobBrief,
  viewerId: string | null,
  depths: LineageDepths = { ancestors: LINEAGE_ANCESTOR_DEPTH, descendants: LINEAGE_DESCENDANT_DEPTH },
): Promise<JobLineage> {
  const canRead = readableBy(viewerId);
  const nodeOf = (job: JobBrief): LineageNode => ({
    id: job.id,
    title: job.title,
    capability: job.capability as Capability,
    status: job.status as JobStatus,
    warning: job.status === "succeeded" && Number(job.warning_count) > 0,
    isOwner: job.owner_id === viewerId,
  });
  const nodes = new Map<string, LineageNode>([[start.id, nodeOf(start)]]);
  const edges = new Map<string, LineageEdge>();

  /**
   * Walks `levels` levels from the start: `step` gives the links of a level, `far` the end of a link on the next one.
   * Only jobs met for the first time go on to the next level (the visited set: the walk ends even on a cycle).
   */
  async function walk(
    levels: number,
    step: (ids: string[]) => Promise<LineageLink[]>,
    far: (l: LineageLink) => string,
  ) {
    let frontier = [start.id];
    for (let level = 0; level < levels && frontier.length > 0; level++) {
      const links = await step(frontier);
      const unseen = [...new Set(links.map(far))].filter((id) => !nodes.has(id));
      const found = (await repositories.jobs.briefsOf(unseen)).filter(canRead);
      for (const job of found) nodes.set(job.id, nodeOf(job));
      for (const link of links) {
        if (!nodes.has(link.source_job_id) || !nodes.has(link.job_id)) continue;
        const edge = {
          from: link.source_job_id,
          to: link.job_id,
          output: link.source_output,
          role: link.role as InputRole,
        };
        edges.set(`${edge.from}\n${edge.to}\n${edge.output}\n${edge.role}`, edge);
      }
      frontier = found.map((job) => job.id);
    }
  }

  await walk(depths.ancestors, repositories.lineage.sourcesOf, (link) => link.source_job_id);
  await walk(depths.descendants, repositories.lineage.usersOf, (link) => link.job_id);
  return { nodes: [...nodes.values()], edges: [...edges.values()] };
}

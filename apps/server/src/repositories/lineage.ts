// The links between jobs that lineage follows: an input file brought in from a job's output names that job and output
// (files.source_job_id, source_output). Both directions read a level of the graph in one query.
import type { Db } from "../db/connect.js";

/** Job `job_id` read output `source_output` of job `source_job_id` as its input of `role`. */
export interface LineageLink {
  job_id: string;
  role: string;
  source_job_id: string;
  source_output: string;
}

export function lineageRepository(db: Db) {
  const links = () =>
    db
      .selectFrom("job_inputs")
      .innerJoin("files", "files.id", "job_inputs.file_id")
      .select(["job_inputs.job_id", "job_inputs.role", "files.source_job_id", "files.source_output"])
      .where("files.source_job_id", "is not", null)
      .where("files.source_output", "is not", null);

  return {
    /** The inputs of these jobs that are other jobs' outputs: the level above them. */
    sourcesOf: async (jobIds: string[]): Promise<LineageLink[]> =>
      jobIds.length === 0
        ? []
        : ((await links()
            .where("job_inputs.job_id", "in", jobIds)
            .orderBy("job_inputs.job_id")
            .orderBy("job_inputs.role")
            .orderBy("job_inputs.position")
            .execute()) as LineageLink[]),

    /** The jobs that read these jobs' outputs (never a part: its job lists the same inputs): the level below them. */
    usersOf: async (jobIds: string[]): Promise<LineageLink[]> =>
      jobIds.length === 0
        ? []
        : ((await links()
            .innerJoin("jobs", "jobs.id", "job_inputs.job_id")
            .where("files.source_job_id", "in", jobIds)
            .where("jobs.parent_id", "is", null)
            .orderBy("jobs.created_at")
            .orderBy("job_inputs.job_id")
            .orderBy("job_inputs.role")
            .orderBy("job_inputs.position")
            .execute()) as LineageLink[]),
  };
}

export type LineageRepository = ReturnType<typeof lineageRepository>;

// Uploaded (and copied-in) files: one row per file stored under the data directory by its id.
import type { Db } from "../db/connect.js";
import type { FilesTable } from "../db/schema.js";

export type FileRow = FilesTable;

export function filesRepository(db: Db) {
  return {
    async insert(file: FileRow): Promise<void> {
      await db.insertInto("files").values(file).execute();
    },
    byId: (id: string) => db.selectFrom("files").selectAll().where("id", "=", id).executeTakeFirst(),
    listByOwner: (ownerId: string) =>
      db.selectFrom("files").selectAll().where("owner_id", "=", ownerId).orderBy("created_at", "desc").execute(),
    /** Files of a job that no other job uses: they go with the job when it is deleted. */
    async unsharedInputsOf(jobId: string): Promise<string[]> {
      const rows = await db
        .selectFrom("job_inputs as mine")
        .select("mine.file_id")
        .where("mine.job_id", "=", jobId)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("job_inputs as other")
                .select("other.job_id")
                .whereRef("other.file_id", "=", "mine.file_id")
                .where("other.job_id", "!=", jobId),
            ),
          ),
        )
        .execute();
      return rows.map((r) => r.file_id);
    },
    async remove(ids: string[]): Promise<void> {
      if (ids.length > 0) await db.deleteFrom("files").where("id", "in", ids).execute();
    },
  };
}

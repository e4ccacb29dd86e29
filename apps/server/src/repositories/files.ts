// Uploaded (and copied-in) files: one row per file stored under the data directory by its id, or standing for a
// capture library's file (library, library_path), which stays where it is.
import type { Insertable } from "kysely";
import type { Db } from "../db/connect.js";
import type { FilesTable } from "../db/schema.js";

export type FileRow = FilesTable;
/** A file as written: a stored file leaves out the library's columns. */
export type NewFile = Insertable<FilesTable>;

export function filesRepository(db: Db) {
  return {
    async insert(file: NewFile): Promise<void> {
      await db.insertInto("files").values(file).execute();
    },
    byId: (id: string) => db.selectFrom("files").selectAll().where("id", "=", id).executeTakeFirst(),
    listByOwner: (ownerId: string) =>
      db.selectFrom("files").selectAll().where("owner_id", "=", ownerId).orderBy("created_at", "desc").execute(),
    /** Files of these jobs (a job and its parts) that no other job uses: they go with the jobs when deleted. */
    async unsharedInputsOf(jobIds: string[]): Promise<string[]> {
      const rows = await db
        .selectFrom("job_inputs as mine")
        .select("mine.file_id")
        .distinct()
        .where("mine.job_id", "in", jobIds)
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("job_inputs as other")
                .select("other.job_id")
                .whereRef("other.file_id", "=", "mine.file_id")
                .where("other.job_id", "not in", jobIds),
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

// Uploaded (and copied-in) files: one row per file stored under the data directory by its id, or standing for a
// capture library's file (library, library_path), which stays where it is.
import type { ExpressionBuilder, Insertable } from "kysely";
import type { Db } from "../db/connect.js";
import type { Database, FilesTable } from "../db/schema.js";

export type FileRow = FilesTable;
/** A file as written: a stored file leaves out the library's columns. */
export type NewFile = Insertable<FilesTable>;

/** An upload of mine with the jobs that read it (a job over several captures once, never its parts). */
export type UploadWithUse = FileRow & { usedBy: { id: string; title: string }[] };

/** A file the user sent: neither a library's file nor an earlier job's output brought in. */
const isUpload = (eb: ExpressionBuilder<Database, "files">) =>
  eb.and([eb("files.library", "is", null), eb("files.source_job_id", "is", null)]);

export function filesRepository(db: Db) {
  return {
    async insert(file: NewFile): Promise<void> {
      await db.insertInto("files").values(file).execute();
    },
    byId: (id: string) => db.selectFrom("files").selectAll().where("id", "=", id).executeTakeFirst(),
    /** The owner's uploads with these digests (SHA-256 and size), oldest first: the one to reuse is the first. */
    uploadsByDigest: (ownerId: string, sha256s: string[]) =>
      sha256s.length === 0
        ? Promise.resolve([])
        : db
            .selectFrom("files")
            .selectAll()
            .where("owner_id", "=", ownerId)
            .where("sha256", "in", sha256s)
            .where((eb) => isUpload(eb))
            .orderBy("created_at")
            .orderBy("id")
            .execute(),
    /**
     * The owner's uploads, newest first, each with the jobs that use it: one query, a row per (file, job), grouped
     * here. A part's inputs are its parent's too, so parts are left out of the join.
     */
    async uploadsWithUse(ownerId: string): Promise<UploadWithUse[]> {
      const rows = await db
        .selectFrom("files")
        .leftJoin("job_inputs", "job_inputs.file_id", "files.id")
        .leftJoin("jobs", (join) => join.onRef("jobs.id", "=", "job_inputs.job_id").on("jobs.parent_id", "is", null))
        .selectAll("files")
        .select(["jobs.id as job_id", "jobs.title as job_title"])
        .where("files.owner_id", "=", ownerId)
        .where((eb) => isUpload(eb))
        .orderBy("files.created_at", "desc")
        .orderBy("files.id")
        .orderBy("jobs.created_at", "desc")
        .orderBy("jobs.id")
        .execute();
      const byId = new Map<string, UploadWithUse>();
      for (const { job_id, job_title, ...file } of rows) {
        const upload = byId.get(file.id) ?? { ...file, usedBy: [] };
        byId.set(file.id, upload);
        if (job_id !== null && job_title !== null && !upload.usedBy.some((u) => u.id === job_id)) {
          upload.usedBy.push({ id: job_id, title: job_title });
        }
      }
      return [...byId.values()];
    },
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
    /**
     * Deletes an upload of the owner's that no job reads, in one statement (a job created meanwhile either sees the
     * file gone or keeps it); false when there was no such unused upload.
     */
    async removeUnusedUpload(ownerId: string, id: string): Promise<boolean> {
      const result = await db
        .deleteFrom("files")
        .where("id", "=", id)
        .where("owner_id", "=", ownerId)
        .where((eb) => isUpload(eb))
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom("job_inputs").select("job_inputs.job_id").whereRef("job_inputs.file_id", "=", "files.id"),
            ),
          ),
        )
        .executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    },
    async remove(ids: string[]): Promise<void> {
      if (ids.length > 0) await db.deleteFrom("files").where("id", "in", ids).execute();
    },
  };
}

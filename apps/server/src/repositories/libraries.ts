// Capture libraries and the cache of what their files are (format, SHA-256, the info pass's result), each cache row
// valid only while the file keeps the size and modification time it was read at.
import type { Db } from "../db/connect.js";
import type { LibrariesTable, LibraryEntriesTable } from "../db/schema.js";

export type LibraryRow = LibrariesTable;
export type LibraryEntryRow = LibraryEntriesTable;

/** A version of a file: what the cache is keyed by beside (library, path). */
export interface FileVersion {
  size: number;
  mtimeMs: number;
}

/** Paths looked up per statement. */
const ENTRIES_PER_QUERY = 500;

export function librariesRepository(db: Db) {
  /** The cache row of (library, path) for this version of the file; a row of another version is left alone. */
  const sameVersion = (library: string, path: string, version: FileVersion) =>
    db
      .updateTable("library_entries")
      .where("library", "=", library)
      .where("path", "=", path)
      .where("size", "=", version.size)
      .where("mtime_ms", "=", version.mtimeMs);

  return {
    async insert(row: LibraryRow): Promise<void> {
      await db.insertInto("libraries").values(row).execute();
    },
    byName: (name: string) => db.selectFrom("libraries").selectAll().where("name", "=", name).executeTakeFirst(),
    list: () => db.selectFrom("libraries").selectAll().orderBy("name").execute(),
    /** Removes a library and its cache; false when there was none of that name. */
    async remove(name: string): Promise<boolean> {
      return db.transaction().execute(async (trx) => {
        await trx.deleteFrom("library_entries").where("library", "=", name).execute();
        const result = await trx.deleteFrom("libraries").where("name", "=", name).executeTakeFirst();
        return Number(result.numDeletedRows) === 1;
      });
    },

    /** The cache rows of some files of a library (one directory's, for a listing). */
    async entries(library: string, paths: string[]): Promise<LibraryEntryRow[]> {
      const rows: LibraryEntryRow[] = [];
      // In slices: both databases bound the parameters of one statement, and a folder may hold tens of thousands.
      for (let start = 0; start < paths.length; start += ENTRIES_PER_QUERY) {
        const slice = paths.slice(start, start + ENTRIES_PER_QUERY);
        rows.push(
          ...(await db
            .selectFrom("library_entries")
            .selectAll()
            .where("library", "=", library)
            .where("path", "in", slice)
            .execute()),
        );
      }
      return rows;
    },
    entry: (library: string, path: string) =>
      db
        .selectFrom("library_entries")
        .selectAll()
        .where("library", "=", library)
        .where("path", "=", path)
        .executeTakeFirst(),
    /** A new version of a file, sniffed: replaces what was known of an older one (its hash and info are stale). */
    async putSniffed(row: Omit<LibraryEntryRow, "sha256" | "info">): Promise<void> {
      const fresh = { ...row, sha256: null, info: null };
      await db
        .insertInto("library_entries")
        .values(fresh)
        .onConflict((oc) =>
          oc.columns(["library", "path"]).doUpdateSet({
            size: row.size,
            mtime_ms: row.mtime_ms,
            format: row.format,
            compression: row.compression,
            sha256: null,
            info: null,
            checked_at: row.checked_at,
          }),
        )
        .execute();
    },
    /** Records a version's SHA-256; false when the row is of another version now (the file changed meanwhile). */
    async putSha256(library: string, path: string, version: FileVersion, sha256: string, at: string) {
      const result = await sameVersion(library, path, version).set({ sha256, checked_at: at }).executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
    /** Records a version's info (and its SHA-256 when the pass took it); false when the row is of another version. */
    async putInfo(
      library: string,
      path: string,
      version: FileVersion,
      info: string,
      sha256: string | null,
      at: string,
    ) {
      const result = await sameVersion(library, path, version)
        .set((eb) => ({ info, checked_at: at, sha256: sha256 === null ? eb.ref("sha256") : sha256 }))
        .executeTakeFirst();
      return Number(result.numUpdatedRows) === 1;
    },
  };
}

export type LibrariesRepository = ReturnType<typeof librariesRepository>;

// Where a job's worker reads a capture library's file: found and confined again when the job starts (the library or
// the file may have changed since the job was created), and read in place, never copied.
import type { Db } from "../db/connect.js";
import type { FileRow } from "../repositories/files.js";
import { librariesRepository } from "../repositories/libraries.js";
import { LibraryPathError, locateLibraryFile } from "./library-path.js";

export interface LibraryInput {
  /** The file's real path, inside its library. */
  path: string;
  /** The digest taken when the job was created, while it still holds for the file (same size and time); else none, and the engine hashes the file itself. */
  sha256: string | undefined;
}

export async function libraryInput(
  db: Db,
  file: Pick<FileRow, "library" | "library_path" | "sha256">,
): Promise<LibraryInput> {
  const repo = librariesRepository(db);
  const name = file.library ?? "";
  const library = await repo.byName(name);
  if (!library) throw new LibraryPathError(400, `The library ${name} is no longer on this server`);
  const location = await locateLibraryFile(library, file.library_path ?? "");
  const cached = await repo.entry(library.name, location.relative);
  const unchanged =
    cached !== undefined &&
    Number(cached.size) === location.stats.size &&
    cached.mtime_ms === location.stats.mtimeMs &&
    cached.sha256 === file.sha256;
  return { path: location.real, sha256: unchanged ? file.sha256 : undefined };
}

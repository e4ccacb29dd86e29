// The administrator's side of capture libraries (`tracemill libraries add|list|remove` on a host that reaches the
// database): a library is a name and a directory, checked and stored as its real path, read in place by every job.
import fs from "node:fs";
import { LIBRARY_NAME, libraryNameRule } from "@tracemill/contracts";
import type { ServerConfig } from "../config.js";
import { openDatabase } from "../db/connect.js";
import { type LibraryRow, librariesRepository } from "../repositories/libraries.js";

/** A library cannot be added or removed: the message says which and why, in one line. */
export class LibraryAdminError extends Error {}

/** The directory as stored: its absolute real path, once it is known to be a directory this process can list. */
async function checkedDirectory(dir: string): Promise<string> {
  let real: string;
  try {
    real = await fs.promises.realpath(dir);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new LibraryAdminError(`${dir}: ${code === "ENOENT" ? "no such directory" : `cannot be read (${code})`}`);
  }
  if (!(await fs.promises.stat(real)).isDirectory()) throw new LibraryAdminError(`${dir}: not a directory`);
  try {
    await fs.promises.access(real, fs.constants.R_OK | fs.constants.X_OK);
    await fs.promises.readdir(real);
  } catch (error) {
    throw new LibraryAdminError(`${dir}: cannot be read (${(error as NodeJS.ErrnoException).code})`);
  }
  return real;
}

export async function openLibraryAdmin(config: ServerConfig) {
  const db = await openDatabase(config.database);
  const repo = librariesRepository(db);
  return {
    async add(name: string, dir: string): Promise<LibraryRow> {
      if (!LIBRARY_NAME.test(name)) {
        throw new LibraryAdminError(`invalid library name "${name}": ${libraryNameRule}`);
      }
      const real = await checkedDirectory(dir);
      const existing = await repo.byName(name);
      if (existing) {
        throw new LibraryAdminError(`a library named ${name} already exists (${existing.dir}); remove it first`);
      }
      const row = { name, dir: real, created_at: new Date().toISOString() };
      await repo.insert(row);
      return row;
    },
    list: () => repo.list(),
    async remove(name: string): Promise<void> {
      if (await repo.remove(name)) return;
      const names = (await repo.list()).map((library) => library.name);
      throw new LibraryAdminError(
        `no library named ${name} (${names.length > 0 ? `there are ${names.join(", ")}` : "there are none"})`,
      );
    },
    close: () => db.destroy(),
  };
}

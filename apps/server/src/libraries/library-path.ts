// Confinement of paths within a capture library: a path is relative to the library, has no ".." segment, no NUL, and
// its real path (symbolic links followed) stays under the library's real path. Checked when a folder is listed, when
// a job is created, and again when a job's worker is given the file.
import fs from "node:fs";
import path from "node:path";

/** Why a library path cannot be used; `status` is the HTTP status the API answers with. */
export class LibraryPathError extends Error {
  constructor(
    readonly status: 400 | 404,
    message: string,
  ) {
    super(message);
  }

  /** The message alone: a job that cannot start shows `String(error)` (jobs/run-outcome.ts). */
  override toString(): string {
    return this.message;
  }
}

export interface LibraryRef {
  name: string;
  /** The library's directory as registered (an absolute real path). */
  dir: string;
}

/** A path as a user wrote it, for messages: control characters made visible. */
function shown(raw: string): string {
  return JSON.stringify(raw).slice(1, -1);
}

/**
 * The path's "/"-separated form relative to the library ("" for its top), or a refusal naming it: an absolute path,
 * a ".." segment or a NUL is refused whatever the file system holds.
 */
export function relativeLibraryPath(raw: string): string {
  if (raw.includes("\0"))
    throw new LibraryPathError(400, `${shown(raw)}: a library path cannot contain a NUL character`);
  if (raw.startsWith("/")) {
    throw new LibraryPathError(400, `${raw}: a library path is relative to the library; it cannot start with "/"`);
  }
  const segments = raw.split("/").filter((segment) => segment !== "" && segment !== ".");
  if (segments.includes("..")) {
    throw new LibraryPathError(400, `${raw}: a library path cannot contain ".." segments`);
  }
  return segments.join("/");
}

/** Where a path of a library is: its normalised relative form and its real path, checked to be inside the library. */
export interface LibraryLocation {
  relative: string;
  real: string;
  stats: fs.Stats;
}

/** The library's real directory now, or a 404 when this host cannot reach it. */
async function libraryRoot(library: LibraryRef): Promise<string> {
  try {
    return await fs.promises.realpath(library.dir);
  } catch (error) {
    throw new LibraryPathError(
      404,
      `The library ${library.name} cannot be read on this server (${(error as NodeJS.ErrnoException).code ?? "error"})`,
    );
  }
}

/** True when `real` is `root` or under it. */
export function isWithin(root: string, real: string): boolean {
  const prefix = root.endsWith(path.sep) ? root : `${root}${path.sep}`;
  return real === root || real.startsWith(prefix);
}

/**
 * Finds a path of a library: refused (400) when it is not a plain relative path or when its real path leaves the
 * library (a symbolic link to elsewhere, on the way or at the end); 404 when nothing is there.
 */
export async function locateInLibrary(library: LibraryRef, raw: string): Promise<LibraryLocation> {
  const relative = relativeLibraryPath(raw);
  const root = await libraryRoot(library);
  const named = relative === "" ? library.name : `${library.name}/${relative}`;
  let real: string;
  try {
    real = await fs.promises.realpath(path.join(root, ...relative.split("/")));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw new LibraryPathError(404, `${named}: no such file or folder in the library`);
    }
    throw new LibraryPathError(400, `${named}: cannot be read (${code ?? String(error)})`);
  }
  if (!isWithin(root, real)) {
    throw new LibraryPathError(400, `${named}: leads outside the library (a symbolic link to elsewhere)`);
  }
  const stats = await fs.promises.stat(real);
  return { relative, real, stats };
}

/** A library's regular file, readable by this process: a folder, a device or an unreadable file is refused. */
export async function locateLibraryFile(library: LibraryRef, raw: string): Promise<LibraryLocation> {
  const location = await locateInLibrary(library, raw);
  const named = `${library.name}/${location.relative}`;
  if (location.stats.isDirectory()) throw new LibraryPathError(400, `${named}: a folder, not a file`);
  if (!location.stats.isFile()) throw new LibraryPathError(400, `${named}: not a regular file`);
  try {
    await fs.promises.access(location.real, fs.constants.R_OK);
  } catch (error) {
    throw new LibraryPathError(400, `${named}: cannot be read (${(error as NodeJS.ErrnoException).code ?? "error"})`);
  }
  return location;
}

// Capture libraries for signed-in users: their names, one folder's listing (sub-folders and captures, with what the
// cache knows of each), and a library's file as a job input: a files row standing for it, read in place by the worker.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import {
  captureFormats,
  type FileFormat,
  type Library,
  type LibraryCaptureInfo,
  type LibraryEntry,
  type LibraryListing,
} from "@tracemill/contracts";
import type { Db } from "../db/connect.js";
import {
  type LibraryLocation,
  LibraryPathError,
  locateInLibrary,
  locateLibraryFile,
} from "../libraries/library-path.js";
import { libraryScanner, type ScanItem } from "../libraries/scanner.js";
import { filesRepository } from "../repositories/files.js";
import {
  type FileVersion,
  type LibrariesRepository,
  type LibraryEntryRow,
  type LibraryRow,
  librariesRepository,
} from "../repositories/libraries.js";
import { sha256OfFile } from "../storage/file-digest.js";
import { SNIFF_BYTES, sniffFormat, UnrecognisedFile } from "../storage/sniff-format.js";
import type { CurrentUser } from "./accounts.js";
import { HttpError, signInRequired } from "./http-error.js";

/** The format recorded for a file the sniffer refuses: it is not listed, and sniffed again only once it changes. */
const UNRECOGNISED = "unrecognised";

const byName = new Intl.Collator("en", { numeric: true }).compare;

const versionOf = (stats: fs.Stats): FileVersion => ({ size: stats.size, mtimeMs: stats.mtimeMs });
const isVersion = (row: LibraryEntryRow, version: FileVersion) =>
  Number(row.size) === version.size && row.mtime_ms === version.mtimeMs;

/** A library path refused: the status it carries when browsing; at job creation every refusal is a bad input (400). */
async function located<T>(find: () => Promise<T>, forJob: boolean): Promise<T> {
  try {
    return await find();
  } catch (error) {
    if (error instanceof LibraryPathError) throw new HttpError(forJob ? 400 : error.status, [error.message]);
    throw error;
  }
}

/**
 * What the file is from its first bytes, with the sniffer's reason when it is nothing Tracemill reads; null when it
 * cannot be read now (a permission, a file gone meanwhile), which is not a fact to keep.
 */
async function sniffFile(
  file: string,
): Promise<{ format: string; compression: string | null; problem?: string } | null> {
  const head = Buffer.alloc(SNIFF_BYTES);
  let bytesRead: number;
  try {
    const handle = await fs.promises.open(file, "r");
    ({ bytesRead } = await handle.read(head, 0, SNIFF_BYTES, 0).finally(() => handle.close()));
  } catch {
    return null;
  }
  try {
    return await sniffFormat(head.subarray(0, bytesRead), bytesRead < SNIFF_BYTES);
  } catch (error) {
    if (!(error instanceof UnrecognisedFile)) throw error;
    return { format: UNRECOGNISED, compression: null, problem: error.message };
  }
}

/**
 * The cache row for the file's version now: the one recorded, else the file sniffed now and recorded (stale facts go);
 * null when the file cannot be read.
 */
async function currentEntry(
  repo: LibrariesRepository,
  library: LibraryRow,
  location: LibraryLocation,
  recorded: LibraryEntryRow | undefined,
): Promise<{ row: LibraryEntryRow; problem?: string } | null> {
  const version = versionOf(location.stats);
  if (recorded && isVersion(recorded, version)) return { row: recorded };
  const sniffed = await sniffFile(location.real);
  if (!sniffed) return null;
  const row = {
    library: library.name,
    path: location.relative,
    size: version.size,
    mtime_ms: version.mtimeMs,
    format: sniffed.format,
    compression: sniffed.compression,
    checked_at: new Date().toISOString(),
  };
  await repo.putSniffed(row);
  return { row: { ...row, sha256: null, info: null }, problem: sniffed.problem };
}

/** A capture's listing entry from its cache row: the info when the background pass has read this version. */
function captureEntry(location: LibraryLocation, row: LibraryEntryRow): LibraryEntry {
  const read = row.info === null ? null : (JSON.parse(row.info) as LibraryCaptureInfo | { problem: string });
  return {
    type: "capture",
    name: path.posix.basename(location.relative),
    path: location.relative,
    size: location.stats.size,
    format: row.format as "pcap" | "pcapng" | "erf",
    compression: row.compression === "gzip" ? "gzip" : null,
    modifiedAt: location.stats.mtime.toISOString(),
    pending: read === null,
    info: read === null || "problem" in read ? null : read,
    ...(read !== null && "problem" in read && { problem: read.problem }),
  };
}

async function namedLibrary(repo: LibrariesRepository, name: string, forJob: boolean): Promise<LibraryRow> {
  const library = await repo.byName(name);
  if (!library) throw new HttpError(forJob ? 400 : 404, [`No library named ${name}`]);
  return library;
}

/** Browsing for signed-in users: the libraries' names and one folder at a time. */
export function librariesService(db: Db) {
  const repo = librariesRepository(db);
  const scanner = libraryScanner(repo);
  return {
    async list(user: CurrentUser | null): Promise<Library[]> {
      if (!user) throw signInRequired();
      return (await repo.list()).map((library) => ({ name: library.name }));
    },

    /** One folder: sub-folders and captures (by their magic bytes); captures not yet read are read in the background. */
    async entries(user: CurrentUser | null, name: string, rawPath: string): Promise<LibraryListing> {
      if (!user) throw signInRequired();
      const library = await namedLibrary(repo, name, false);
      const folder = await located(() => locateInLibrary(library, rawPath), false);
      const shown = folder.relative === "" ? library.name : `${library.name}/${folder.relative}`;
      if (!folder.stats.isDirectory()) throw new HttpError(400, [`${shown}: a file, not a folder`]);
      const names = await fs.promises.readdir(folder.real).catch((error: NodeJS.ErrnoException) => {
        throw new HttpError(400, [`${shown}: cannot be read (${error.code ?? error.message})`]);
      });
      const folders: LibraryEntry[] = [];
      const found: LibraryLocation[] = [];
      for (const entry of names) {
        // Hidden names (.snapshot, .Trash) are the file system's or the desktop's, not captures.
        if (entry.startsWith(".")) continue;
        const relative = folder.relative === "" ? entry : `${folder.relative}/${entry}`;
        // A link that leads outside the library or nowhere is not offered; anything but folders and files neither.
        const location = await locateInLibrary(library, relative).catch(() => null);
        if (!location) continue;
        if (location.stats.isDirectory()) folders.push({ type: "directory", name: entry, path: relative });
        else if (location.stats.isFile()) found.push(location);
      }
      const recorded = new Map(
        (
          await repo.entries(
            library.name,
            found.map((f) => f.relative),
          )
        ).map((row) => [row.path, row]),
      );
      const captures: LibraryEntry[] = [];
      const toRead: ScanItem[] = [];
      for (const location of found) {
        // A file that cannot be read is not offered (a job on it would be refused as unreadable).
        const current = await currentEntry(repo, library, location, recorded.get(location.relative));
        if (!current || !captureFormats.includes(current.row.format as FileFormat)) continue;
        const entry = captureEntry(location, current.row);
        captures.push(entry);
        if (entry.type === "capture" && entry.pending) {
          toRead.push({ library, path: location.relative, ...versionOf(location.stats) });
        }
      }
      scanner.request(toRead);
      folders.sort((a, b) => byName(a.name, b.name));
      captures.sort((a, b) => byName(a.name, b.name));
      return { library: library.name, path: folder.relative, entries: [...folders, ...captures] };
    },

    /** Stops the background reading (a file being read is left half-read: nothing was recorded of it). */
    close: () => scanner.close(),
  };
}

/** Library files as job inputs (services/jobs.ts, resolveInput). */
export function libraryInputs(db: Db) {
  const repo = librariesRepository(db);
  const files = filesRepository(db);
  /** Hashes under way, by file version: two jobs created at once on one new file read it once. */
  const hashing = new Map<string, Promise<string>>();

  /** The version's SHA-256, taken once and recorded; a file that changes while it is read is refused. */
  function sha256Of(library: LibraryRow, location: LibraryLocation): Promise<string> {
    const version = versionOf(location.stats);
    const key = `${library.name}\0${location.relative}\0${version.size}\0${version.mtimeMs}`;
    let pending = hashing.get(key);
    if (!pending) {
      pending = (async () => {
        const sha256 = await sha256OfFile(location.real);
        const after = await fs.promises.stat(location.real);
        if (after.size !== version.size || after.mtimeMs !== version.mtimeMs) {
          throw new HttpError(400, [`${library.name}/${location.relative}: changed while it was read; try again`]);
        }
        await repo.putSha256(library.name, location.relative, version, sha256, new Date().toISOString());
        return sha256;
      })().finally(() => hashing.delete(key));
      hashing.set(key, pending);
    }
    return pending;
  }

  return {
    /**
     * A library's file as a new file of the user's, for a job's input: confined, sniffed, hashed (once per version of
     * the file; the cache keeps it), never copied. Returns the file's id.
     */
    async fileForJob(user: CurrentUser, ref: { library: string; path: string }): Promise<string> {
      const library = await namedLibrary(repo, ref.library, true);
      const location = await located(() => locateLibraryFile(library, ref.path), true);
      const shown = `${library.name}/${location.relative}`;
      const current = await currentEntry(repo, library, location, await repo.entry(library.name, location.relative));
      if (!current) throw new HttpError(400, [`${shown}: cannot be read`]);
      const { row, problem } = current;
      if (row.format === UNRECOGNISED) {
        // The cache keeps no reason: the first bytes say it again.
        const reason = problem ?? (await sniffFile(location.real))?.problem ?? "not a file any capability reads";
        throw new HttpError(400, [`${shown}: ${reason}`]);
      }
      const sha256 = row.sha256 ?? (await sha256Of(library, location));
      const id = crypto.randomUUID();
      await files.insert({
        id,
        owner_id: user.id,
        name: path.posix.basename(location.relative),
        size: location.stats.size,
        sha256,
        format: row.format,
        compression: row.compression,
        created_at: new Date().toISOString(),
        library: library.name,
        library_path: location.relative,
      });
      return id;
    },
  };
}

export type LibrariesService = ReturnType<typeof librariesService>;

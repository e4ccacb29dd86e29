// Capture libraries: directories of captures on the lab's storage that an administrator registers (`tracemill
// libraries add`) and signed-in users browse and use as job inputs in place, without uploading.
import { z } from "zod";

/** A library's name: a plain slug, so it reads the same in a URL, a command line and a job's inputs. */
export const LIBRARY_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const libraryNameRule = "1 to 64 lower-case letters, digits, '-' or '_', starting with a letter or digit";

/** What users see of a library: its name only, never the server's directory. */
export const library = z.object({ name: z.string() });
export type Library = z.infer<typeof library>;

/** What a capture holds, read once per (size, modification time) by the engine's info pass (`tracemill info`). */
export const libraryCaptureInfo = z.object({
  packets: z.number(),
  /** Earliest and latest packet time, ISO 8601 UTC with nanoseconds; null without packets. */
  first: z.string().nullable(),
  last: z.string().nullable(),
  /** last − first in seconds, exact to the nanosecond as text. */
  duration: z.string().nullable(),
  linkTypes: z.array(z.object({ linkType: z.number(), name: z.string(), packets: z.number() })),
  /** False when the capture is damaged part-way: `damage` says where. */
  complete: z.boolean(),
  damage: z.string().optional(),
});
export type LibraryCaptureInfo = z.infer<typeof libraryCaptureInfo>;

export const libraryDirectory = z.object({
  type: z.literal("directory"),
  name: z.string(),
  /** Relative to the library, "/"-separated: the `path` to list it or (for a file) to use it as an input. */
  path: z.string(),
});

export const libraryCapture = z.object({
  type: z.literal("capture"),
  name: z.string(),
  path: z.string(),
  size: z.number(),
  /** From the magic bytes, never the name. */
  format: z.enum(["pcap", "pcapng", "erf"]),
  compression: z.enum(["gzip"]).nullable(),
  modifiedAt: z.string(),
  /** The info pass has not read this version of the file yet: it runs in the background; list again later. */
  pending: z.boolean(),
  info: libraryCaptureInfo.nullable(),
  /** Why the info pass could not read the file (it is listed, and a job on it fails with the same reason). */
  problem: z.string().optional(),
});

export const libraryEntry = z.discriminatedUnion("type", [libraryDirectory, libraryCapture]);
export type LibraryEntry = z.infer<typeof libraryEntry>;

/** One folder of a library: its sub-folders, then its captures, each sorted by name. */
export const libraryListing = z.object({
  library: z.string(),
  /** The folder listed, relative to the library ("" for its top). */
  path: z.string(),
  entries: z.array(libraryEntry),
});
export type LibraryListing = z.infer<typeof libraryListing>;

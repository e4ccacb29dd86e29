// Uploads as their owner sees them: the look-up by digest that lets a browser skip an upload the server already
// holds, and the listing with each upload's use (docs/api.md, "Files").
import { z } from "zod";
import { uploadedFile } from "./jobs.js";

/** Digests asked in one look-up: every input a job can take (captures, attack captures, alerts, one more) fits. */
export const MAX_LOOKUP_FILES = 1000;

/** A file's identity for reuse: its SHA-256 (hex, either case) and its size in bytes. */
export const fileDigest = z.object({
  sha256: z.string().regex(/^[0-9a-fA-F]{64}$/, "a SHA-256 as 64 hex digits"),
  size: z.number().int().min(0),
});
export type FileDigest = z.infer<typeof fileDigest>;

export const fileLookupRequest = z.object({ files: z.array(fileDigest).min(1).max(MAX_LOOKUP_FILES) });
export type FileLookupRequest = z.infer<typeof fileLookupRequest>;

/** For each digest asked, in order: my upload with those bytes, or null. */
export const fileLookupResponse = z.object({ files: z.array(uploadedFile.nullable()) });
export type FileLookupResponse = z.infer<typeof fileLookupResponse>;

/** An upload with the jobs that read it (a file no job reads may be deleted). */
export const listedUpload = uploadedFile.extend({
  usedBy: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type ListedUpload = z.infer<typeof listedUpload>;

// What a wizard's submit does before it creates the job: each picked file of the user's disk is hashed in the browser,
// the server is asked which of those bytes it already holds (the user's own uploads only), and only the others are
// uploaded, one at a time, each identical content once. Nothing is sent before the submit, so an abandoned wizard
// leaves nothing on the server.
import type { FileRef } from "@tracemill/contracts";
import { api, messagesOf } from "../api/client.js";
import { sha256OfFile } from "./file-digest.js";

/** Where the submit is, for its progress bar: reading a file for its digest, or uploading it. */
export interface UploadStatus {
  stage: "reading" | "uploading";
  name: string;
  /** Of this file's stage, 0 to 1. */
  fraction: number;
  /** This file's place among those of the stage, from 1. */
  index: number;
  count: number;
}

/**
 * A picked file that could not be read or uploaded: the wizard shows the message at that file's field, and keeps the
 * references of the files that got there before it, so that the next submit sends none of them again.
 */
export class UploadFailed extends Error {
  constructor(
    readonly file: File,
    message: string,
    readonly done: ReadonlyMap<File, FileRef>,
  ) {
    super(message);
  }
}

/** The server's reference for each file (the same bytes twice: one upload), uploading what it lacks. */
export async function uploadPicked(
  files: readonly File[],
  onStatus: (status: UploadStatus) => void,
): Promise<Map<File, FileRef>> {
  const refs = new Map<File, FileRef>();
  if (files.length === 0) return refs;
  const digests: { sha256: string; size: number }[] = [];
  for (const [i, file] of files.entries()) {
    const report = (fraction: number) =>
      onStatus({ stage: "reading", name: file.name, fraction, index: i + 1, count: files.length });
    try {
      digests.push({ sha256: await sha256OfFile(file, report), size: file.size });
    } catch (error) {
      const reason = messagesOf(error).join(" ") || "unknown";
      throw new UploadFailed(file, `${file.name}: could not be read (${reason})`, refs);
    }
  }
  const found = (await api.lookupFiles(digests)).files;
  const keyOf = (i: number) => `${digests[i].sha256}/${digests[i].size}`;
  const count = new Set(files.flatMap((_, i) => (found[i] ? [] : [keyOf(i)]))).size;
  const uploaded = new Map<string, FileRef>();
  for (const [i, file] of files.entries()) {
    const stored = found[i];
    if (stored) {
      refs.set(file, { fileId: stored.id });
      continue;
    }
    let ref = uploaded.get(keyOf(i));
    if (!ref) {
      const index = uploaded.size + 1;
      const report = (fraction: number) => onStatus({ stage: "uploading", name: file.name, fraction, index, count });
      report(0);
      try {
        ref = { fileId: (await api.upload(file, report)).id };
      } catch (error) {
        throw new UploadFailed(file, messagesOf(error).join(" ") || `${file.name}: the upload failed`, refs);
      }
      uploaded.set(keyOf(i), ref);
    }
    refs.set(file, ref);
  }
  return refs;
}

// Uploads: streamed to disk under a fresh id, hashed, checked from the magic bytes, kept once per content (SHA-256 and
// size) per user, found by digest, listed with their use, and deleted when no job reads them.
import crypto from "node:crypto";
import type { Readable } from "node:stream";
import {
  type FileFormat,
  type FileLookupResponse,
  fileLookupRequest,
  type ListedUpload,
  type UploadedFile,
} from "@tracemill/contracts";
import type { Db } from "../db/connect.js";
import { filesRepository } from "../repositories/files.js";
import { DISK_FULL, isDiskFull } from "../storage/disk-full.js";
import { UploadBroken, UploadTooLarge } from "../storage/file-store.js";
import { UnrecognisedFile } from "../storage/sniff-format.js";
import type { Storage, StoredUpload } from "../storage/storage.js";
import type { CurrentUser } from "./accounts.js";
import { HttpError, notFound, signInRequired } from "./http-error.js";
import { fileView } from "./job-view.js";

export interface IncomingFile {
  name: string;
  stream: Readable;
  truncated: () => boolean;
}

export function uploadsService(db: Db, store: Storage, options: { maxUploadBytes: number }) {
  const files = filesRepository(db);
  return {
    /**
     * Stores one upload; `accept` narrows the formats (the original product's /upfile/u2 takes alerts only). The
     * request's body is read only once the user is known to be signed in. Bytes the user has uploaded before (the
     * same SHA-256 and size) are not kept twice: the new copy goes and the first upload answers, under its first
     * name (`created` false).
     */
    async upload(
      user: CurrentUser | null,
      receive: () => Promise<IncomingFile | undefined>,
      accept?: readonly FileFormat[],
    ): Promise<{ file: UploadedFile; created: boolean }> {
      if (!user) throw signInRequired();
      const incoming = await receive();
      if (!incoming) throw new HttpError(400, ['No file was sent: send it as the multipart field "file"']);
      const id = crypto.randomUUID();
      let stored: StoredUpload;
      try {
        stored = await store.save(id, incoming.stream, incoming.truncated);
      } catch (error) {
        throw uploadError(incoming.name, error, options.maxUploadBytes);
      }
      if (accept && !accept.includes(stored.format)) {
        store.removeFiles([id]);
        throw new HttpError(400, [
          `${incoming.name}: expected ${accept.join(" or ")}, but the file is ${stored.format}`,
        ]);
      }
      const row = {
        id,
        owner_id: user.id,
        name: incoming.name.slice(0, 255) || "upload",
        size: stored.size,
        sha256: stored.sha256,
        format: stored.format,
        compression: stored.compression,
        created_at: new Date().toISOString(),
      };
      try {
        // Checked once the bytes are in, not before: only now is their digest known. Two identical uploads at the
        // very same moment may both be kept; nothing depends on there being one.
        const [same] = await sameUploads(user.id, [{ sha256: stored.sha256, size: stored.size }]);
        if (same) {
          store.removeFiles([id]);
          return { file: fileView(same), created: false };
        }
        await files.insert(row);
      } catch (error) {
        // A file without its row would take space for ever.
        store.removeFiles([id]);
        throw uploadError(incoming.name, error, options.maxUploadBytes);
      }
      return { file: fileView(row), created: true };
    },

    /**
     * For each digest asked, the user's upload with those bytes, or null: a browser that finds its file needs no
     * upload. Only the user's own uploads answer, so it tells nobody what another user holds.
     */
    async lookup(user: CurrentUser | null, body: unknown): Promise<FileLookupResponse> {
      if (!user) throw signInRequired();
      const parsed = fileLookupRequest.safeParse(body ?? {});
      if (!parsed.success) {
        throw new HttpError(
          400,
          parsed.error.issues.map((i) => `Invalid ${i.path.join(".") || "body"}: ${i.message}`),
        );
      }
      const found = await sameUploads(user.id, parsed.data.files);
      return { files: found.map((row) => (row ? fileView(row) : null)) };
    },

    /** My uploads, newest first, each with the jobs that read it. */
    async list(user: CurrentUser | null): Promise<ListedUpload[]> {
      if (!user) throw signInRequired();
      return (await files.uploadsWithUse(user.id)).map((row) => ({ ...fileView(row), usedBy: row.usedBy }));
    },

    /**
     * Deletes an upload of mine that no job reads: its row, then its bytes. Someone else's file, a library's file
     * or an output brought in is 404 (no upload of mine); an upload a job reads is 409, naming how many.
     */
    async remove(user: CurrentUser | null, id: string): Promise<void> {
      if (!user) throw signInRequired();
      if (await files.removeUnusedUpload(user.id, id)) {
        store.removeFiles([id]);
        return;
      }
      const upload = (await files.uploadsWithUse(user.id)).find((row) => row.id === id);
      if (!upload) throw notFound();
      const jobs = upload.usedBy.length;
      throw new HttpError(409, [
        `${upload.name} is an input of ${jobs} job${jobs === 1 ? "" : "s"}: it can be deleted once no job uses it`,
      ]);
    },
  };

  /** The user's first upload with each digest's bytes (the same SHA-256 and size), or null, in the order asked. */
  async function sameUploads(ownerId: string, digests: readonly { sha256: string; size: number }[]) {
    const wanted = digests.map((d) => ({ sha256: d.sha256.toLowerCase(), size: d.size }));
    const rows = await files.uploadsByDigest(ownerId, [...new Set(wanted.map((d) => d.sha256))]);
    return wanted.map((d) => rows.find((row) => row.sha256 === d.sha256 && Number(row.size) === d.size) ?? null);
  }
}

/** Why an upload was not kept, for the user: a wrong file, too large, a broken request or a full disk. */
function uploadError(name: string, error: unknown, maxUploadBytes: number): unknown {
  if (error instanceof UnrecognisedFile) return new HttpError(400, [`${name}: ${error.message}`]);
  if (error instanceof UploadTooLarge) {
    return new HttpError(413, [`${name}: the file is larger than the limit of ${maxUploadBytes} bytes`]);
  }
  if (error instanceof UploadBroken) {
    return new HttpError(400, [`${name}: the upload was cut off or malformed (${error.message}); nothing was kept`]);
  }
  if (isDiskFull(error)) return new HttpError(507, [`${name}: ${DISK_FULL.toLowerCase()}; nothing was kept`]);
  return error;
}

export type UploadsService = ReturnType<typeof uploadsService>;

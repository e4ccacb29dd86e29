// Uploads: streamed to disk under a fresh id, hashed, checked from the magic bytes, and listed per user.
import crypto from "node:crypto";
import type { Readable } from "node:stream";
import type { FileFormat, UploadedFile } from "@tracemill/contracts";
import type { Db } from "../db/connect.js";
import { filesRepository } from "../repositories/files.js";
import { DISK_FULL, isDiskFull } from "../storage/disk-full.js";
import { UploadBroken, UploadTooLarge } from "../storage/file-store.js";
import { UnrecognisedFile } from "../storage/sniff-format.js";
import type { Storage, StoredUpload } from "../storage/storage.js";
import type { CurrentUser } from "./accounts.js";
import { HttpError, signInRequired } from "./http-error.js";
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
     * request's body is read only once the user is known to be signed in.
     */
    async upload(
      user: CurrentUser | null,
      receive: () => Promise<IncomingFile | undefined>,
      accept?: readonly FileFormat[],
    ): Promise<UploadedFile> {
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
        await files.insert(row);
      } catch (error) {
        // A file without its row would take space for ever.
        store.removeFiles([id]);
        throw uploadError(incoming.name, error, options.maxUploadBytes);
      }
      return fileView(row);
    },

    async list(user: CurrentUser | null): Promise<UploadedFile[]> {
      if (!user) throw signInRequired();
      return (await files.listByOwner(user.id)).map(fileView);
    },
  };
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

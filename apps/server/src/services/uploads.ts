// Uploads: streamed to disk under a fresh id, hashed, checked from the magic bytes, and listed per user.
import crypto from "node:crypto";
import type { Readable } from "node:stream";
import type { FileFormat, UploadedFile } from "@tracemill/contracts";
import type { Db } from "../db/connect.js";
import { filesRepository } from "../repositories/files.js";
import { type FileStore, UploadTooLarge } from "../storage/file-store.js";
import { UnrecognisedFile } from "../storage/sniff-format.js";
import type { CurrentUser } from "./accounts.js";
import { HttpError, signInRequired } from "./http-error.js";
import { fileView } from "./job-view.js";

export interface IncomingFile {
  name: string;
  stream: Readable;
  truncated: () => boolean;
}

export function uploadsService(db: Db, store: FileStore, options: { maxUploadBytes: number }) {
  const files = filesRepository(db);
  return {
    /** Stores one upload; `accept` narrows the formats (the original product's /upfile/u2 takes alerts only). */
    async upload(
      user: CurrentUser | null,
      incoming: IncomingFile | undefined,
      accept?: readonly FileFormat[],
    ): Promise<UploadedFile> {
      if (!user) {
        incoming?.stream.resume();
        throw signInRequired();
      }
      if (!incoming) throw new HttpError(400, ['No file was sent: send it as the multipart field "file"']);
      const id = crypto.randomUUID();
      let stored: Awaited<ReturnType<FileStore["save"]>>;
      try {
        stored = await store.save(id, incoming.stream, incoming.truncated);
      } catch (error) {
        if (error instanceof UnrecognisedFile) throw new HttpError(400, [`${incoming.name}: ${error.message}`]);
        if (error instanceof UploadTooLarge) {
          throw new HttpError(413, [
            `${incoming.name}: the file is larger than the limit of ${options.maxUploadBytes} bytes`,
          ]);
        }
        throw error;
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
      await files.insert(row);
      return fileView(row);
    },

    async list(user: CurrentUser | null): Promise<UploadedFile[]> {
      if (!user) throw signInRequired();
      return (await files.listByOwner(user.id)).map(fileView);
    },
  };
}

export type UploadsService = ReturnType<typeof uploadsService>;

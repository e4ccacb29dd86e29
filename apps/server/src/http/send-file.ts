// Streams a file download with a proper file name and HTTP Range support (one range; resumable large downloads).
// Files are opened before anything is sent and read through that descriptor: a file deleted meanwhile (its job
// deleted during the download) is still served whole, and one already gone answers 404 before the status line.
import fs from "node:fs";
import type { FastifyReply, FastifyRequest } from "fastify";
import { notFound } from "../services/http-error.js";

/** A file opened for a download: its descriptor and what fstat said of it. */
export interface OpenedFile {
  handle: fs.promises.FileHandle;
  size: number;
  mtime: Date;
  mode: number;
}

/** Opens a file to send; one that does not exist (any more) is 404. */
export async function openDownload(filePath: string): Promise<OpenedFile> {
  let handle: fs.promises.FileHandle;
  try {
    handle = await fs.promises.open(filePath, "r");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") throw notFound();
    throw error;
  }
  try {
    const { size, mtime, mode } = await handle.stat();
    return { handle, size, mtime, mode };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Opens every file or none: when one is missing, those already open are closed again. */
export async function openDownloads<T extends { path: string }>(files: T[]): Promise<(T & OpenedFile)[]> {
  const opened = await Promise.allSettled(files.map((file) => openDownload(file.path)));
  const failed = opened.find((result) => result.status === "rejected");
  if (failed) {
    await Promise.all(opened.map((result) => (result.status === "fulfilled" ? result.value.handle.close() : null)));
    throw failed.reason;
  }
  return files.map((file, i) => ({ ...file, ...(opened[i] as PromiseFulfilledResult<OpenedFile>).value }));
}

/** Content-Disposition with an ASCII fallback and the exact UTF-8 name (RFC 6266 / 5987). */
export function contentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]|["\\]/g, "_");
  // encodeURIComponent leaves ' ( ) * as they are; RFC 5987 wants them encoded.
  const exact = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${exact}`;
}

const TYPES: Record<string, string> = {
  csv: "text/csv; charset=utf-8",
  txt: "text/plain; charset=utf-8",
  json: "application/json",
  zip: "application/zip",
  gz: "application/gzip",
  pcap: "application/vnd.tcpdump.pcap",
  parquet: "application/vnd.apache.parquet",
};

/**
 * Sends a file, opening it first when given its path (its descriptor is closed once sent, or when the client
 * leaves).
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  source: string | OpenedFile,
  downloadName: string,
): Promise<FastifyReply> {
  const file = typeof source === "string" ? await openDownload(source) : source;
  const { size } = file;
  const extension = downloadName.split(".").pop()?.toLowerCase() ?? "";
  reply
    .header("Content-Type", TYPES[extension] ?? "application/octet-stream")
    .header("Content-Disposition", contentDisposition(downloadName))
    .header("Accept-Ranges", "bytes");
  const range = request.headers.range;
  if (!range) {
    reply.header("Content-Length", size);
    return reply.send(file.handle.createReadStream());
  }
  const match = /^bytes=(\d*)-(\d*)$/.exec(range.trim());
  let start = match?.[1] ? Number(match[1]) : Number.NaN;
  let end = match?.[2] ? Number(match[2]) : size - 1;
  if (match && !match[1] && match[2]) {
    start = Math.max(0, size - Number(match[2]));
    end = size - 1;
  }
  end = Math.min(end, size - 1);
  if (!match || Number.isNaN(start) || start > end || start >= size) {
    void file.handle.close().catch(() => {});
    return reply
      .code(416)
      .header("Content-Range", `bytes */${size}`)
      .send(JSON.stringify({ messages: ["Range not satisfiable"] }));
  }
  return reply
    .code(206)
    .header("Content-Range", `bytes ${start}-${end}/${size}`)
    .header("Content-Length", end - start + 1)
    .send(file.handle.createReadStream({ start, end }));
}

/** A name for downloads: the job's title made safe for file systems, or a fallback. */
export function safeName(title: string, fallback: string): string {
  const cleaned = [...title]
    .map((c) => (c.charCodeAt(0) < 0x20 || '\\/:*?"<>|'.includes(c) ? " " : c))
    .join("")
    .trim()
    .replace(/\s+/g, "-")
    .slice(0, 80);
  return cleaned || fallback;
}

// Streams a file download with a proper file name and HTTP Range support (one range; resumable large downloads).
import fs from "node:fs";
import type { FastifyReply, FastifyRequest } from "fastify";

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
  pcap: "application/vnd.tcpdump.pcap",
};

export function sendFile(request: FastifyRequest, reply: FastifyReply, filePath: string, downloadName: string) {
  const size = fs.statSync(filePath).size;
  const extension = downloadName.split(".").pop()?.toLowerCase() ?? "";
  reply
    .header("Content-Type", TYPES[extension] ?? "application/octet-stream")
    .header("Content-Disposition", contentDisposition(downloadName))
    .header("Accept-Ranges", "bytes");
  const range = request.headers.range;
  if (!range) {
    reply.header("Content-Length", size);
    return reply.send(fs.createReadStream(filePath));
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
    return reply
      .code(416)
      .header("Content-Range", `bytes */${size}`)
      .send(JSON.stringify({ messages: ["Range not satisfiable"] }));
  }
  return reply
    .code(206)
    .header("Content-Range", `bytes ${start}-${end}/${size}`)
    .header("Content-Length", end - start + 1)
    .send(fs.createReadStream(filePath, { start, end }));
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

// Streams several files as one zip (yazl): nothing is buffered whole, so large outputs download at disk speed.
import type { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import yazl from "yazl";
import { contentDisposition } from "./send-file.js";

export function sendZip(reply: FastifyReply, zipName: string, files: { name: string; path: string }[]) {
  const zip = new yazl.ZipFile();
  // Already-compressed outputs (pcap payloads, zips of images) gain little from deflate; CSV and text gain a lot.
  for (const file of files) zip.addFile(file.path, file.name, { compress: !/\.(zip|gz)$/i.test(file.name) });
  zip.end();
  // A file vanishing mid-stream (job deleted during a download) must end this response, not the server.
  zip.on("error", (error: Error) => (zip.outputStream as Readable).destroy(error));
  return reply
    .header("Content-Type", "application/zip")
    .header("Content-Disposition", contentDisposition(zipName))
    .send(zip.outputStream);
}

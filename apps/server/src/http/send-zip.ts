// Streams several files as one zip (yazl): nothing is buffered whole, so large outputs download at disk speed.
// Every entry is opened (openDownloads) before the status line and read through its descriptor, so a job deleted
// during the download still yields the whole zip.
import type { ReadStream } from "node:fs";
import type { Readable } from "node:stream";
import type { FastifyReply } from "fastify";
import yazl from "yazl";
import { contentDisposition, type OpenedFile, openDownloads } from "./send-file.js";

/** Sends the files as one zip; when one of them is gone, 404 before anything is sent. */
export async function sendZip(reply: FastifyReply, zipName: string, files: { name: string; path: string }[]) {
  return sendOpenedZip(reply, zipName, await openDownloads(files));
}

/** Sends files already opened as one zip, each entry read through its descriptor. */
export function sendOpenedZip(reply: FastifyReply, zipName: string, files: (OpenedFile & { name: string })[]) {
  const zip = new yazl.ZipFile();
  const streams = new Map<OpenedFile, ReadStream>();
  for (const file of files) {
    const options = {
      size: file.size,
      mtime: file.mtime,
      mode: file.mode,
      // Already-compressed outputs (pcap payloads, zips of images) gain little from deflate; CSV and text gain a lot.
      compress: !/\.(zip|gz)$/i.test(file.name),
    };
    zip.addReadStreamLazy(file.name, options, (give) => {
      const stream = file.handle.createReadStream();
      streams.set(file, stream);
      give(null, stream);
    });
  }
  zip.end();
  const output = zip.outputStream as Readable;
  // A read that fails after all (a disk error) ends this response, not the server.
  zip.on("error", (error: Error) => output.destroy(error));
  // Each descriptor closes with its stream; a client that leaves early leaves entries never reached, closed here.
  reply.raw.once("close", () => {
    for (const file of files) {
      const stream = streams.get(file);
      if (stream) stream.destroy();
      else void file.handle.close().catch(() => {});
    }
  });
  return reply
    .header("Content-Type", "application/zip")
    .header("Content-Disposition", contentDisposition(zipName))
    .send(output);
}

// Joins images zips (engine/images) of the parts into one: the features CSVs under one header as the first entry, the
// images renumbered on from the images before them (a part's last, partly filled image stays as it was), and one
// manifest whose image names and CSV rows point into the joined files. Entries are copied as stored, CRC-32 kept
// (each checked against it as it is read: a damaged part fails the join rather than passing its damage on).
import fs from "node:fs";
import readline from "node:readline";
import { Readable } from "node:stream";
import { IMAGE_MANIFEST_NAME, imageEntryName, TracemillError } from "@tracemill/core";
import { OutputFile, ZipWriter } from "../output/index.js";
import { entryBytes, entryChunks, listZip } from "../zip/index.js";

const IMAGE_NAME = /^images\/image-(\d+)\.png$/;

export async function concatImageZips(
  sources: readonly string[],
  target: string,
  options: { signal?: AbortSignal } = {},
): Promise<void> {
  const zip = new ZipWriter(target, "features.csv", `${target}.tail`);
  const manifestPath = `${target}.manifest`;
  const manifest = new OutputFile(manifestPath, { crc: true });
  let csvHeader: Buffer | null = null;
  let manifestHeader: string | null = null;
  let rowsBefore = 0;
  let imagesBefore = 0;
  try {
    for (const [index, source] of sources.entries()) {
      const entries = await listZip(source, source);
      const handle = await fs.promises.open(source, "r");
      let rows = 0;
      let images = 0;
      try {
        for (const entry of entries) {
          options.signal?.throwIfAborted();
          if (entry.name === "features.csv") {
            // Byte for byte, as the CSVs of other jobs are joined: the header once, every row as it is.
            let head: Buffer | null = Buffer.alloc(0);
            for await (const chunk of entryChunks(handle, entry, source)) {
              let bytes = chunk;
              if (head !== null) {
                head = Buffer.concat([head, bytes]);
                const end = head.indexOf(0x0a);
                if (end < 0) continue;
                const line = head.subarray(0, end + 1);
                csvHeader ??= Buffer.from(line);
                if (!line.equals(csvHeader)) throw differs(source, "features.csv");
                bytes = index === 0 ? head : head.subarray(end + 1);
                head = null;
              }
              rows += countLines(bytes);
              zip.lead.write(bytes);
            }
            if (index === 0) rows -= 1;
          } else if (entry.name === IMAGE_MANIFEST_NAME) {
            let first = true;
            const input = Readable.from(entryChunks(handle, entry, source));
            for await (const line of readline.createInterface({ input, crlfDelay: Infinity })) {
              if (first) {
                first = false;
                manifestHeader ??= line;
                if (line !== manifestHeader) throw differs(source, IMAGE_MANIFEST_NAME);
                if (index === 0) manifest.write(Buffer.from(`${line}\n`));
                continue;
              }
              manifest.write(Buffer.from(`${manifestLine(line, imagesBefore, rowsBefore, source)}\n`));
            }
          } else {
            const match = IMAGE_NAME.exec(entry.name);
            if (!match)
              throw new TracemillError("BAD_INPUT", `${source}: unexpected entry ${entry.name}`, { file: source });
            const png = await entryBytes(handle, entry, source);
            zip.addParts(imageEntryName(imagesBefore + Number(match[1]) - 1), [png], entry.crc);
            images++;
          }
        }
      } finally {
        await handle.close();
      }
      rowsBefore += rows;
      imagesBefore += images;
    }
    const crc = manifest.takeCrc();
    const size = manifest.bytes;
    await manifest.commit();
    zip.addFile(manifestPath, IMAGE_MANIFEST_NAME, crc, size);
    await zip.finish();
  } catch (error) {
    await manifest.discard();
    await zip.discard();
    throw error;
  }
}

/** A manifest line of a part (`image,row,csv_row[,labels…]`) pointing into the joined images and CSV. */
function manifestLine(line: string, imagesBefore: number, rowsBefore: number, source: string): string {
  const [image, row, csvRow, ...labels] = line.split(",");
  const match = IMAGE_NAME.exec(image);
  if (!match || csvRow === undefined) {
    throw new TracemillError("BAD_INPUT", `${source}: a manifest line is not image,row,csv_row: ${line}`, {
      file: source,
    });
  }
  return [imageEntryName(imagesBefore + Number(match[1]) - 1), row, rowsBefore + Number(csvRow), ...labels].join(",");
}

function countLines(bytes: Buffer): number {
  let count = 0;
  for (let at = bytes.indexOf(0x0a); at >= 0; at = bytes.indexOf(0x0a, at + 1)) count++;
  return count;
}

const differs = (source: string, entry: string) =>
  new TracemillError("BAD_INPUT", `${source}: its ${entry} header differs from the first part's`, { file: source });

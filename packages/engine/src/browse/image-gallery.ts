// An images zip (docs/formats.md, "Grayscale images") opened for a gallery: its images in number order, each one's
// manifest lines (pixel row, CSV row, labels) and the session of each CSV row, and any image's PNG. Opening reads the
// central directory, the manifest and the CSV once, keeping only where things lie (a few bytes per image and per 64
// rows); a page then reads its own manifest lines and CSV rows, and an image only its own bytes.
import fs from "node:fs";
import {
  CsvScanner,
  HeaderThenRows,
  IMAGE_MANIFEST_NAME,
  ROW_STRIDE,
  type SessionKey,
  sessionKey,
  sessionKeyColumns,
  TracemillError,
} from "@tracemill/core";
import { entryBytes, readZipDirectory, storedRegion, type ZipEntryPlace } from "../zip/index.js";
import { cellReader, csvHeader, csvRows, firstRows, indexRows, type RowIndex } from "./row-index.js";

const CSV_ENTRY = "features.csv";
const IMAGE_NAME = /^images\/image-(\d{6,9})\.png$/;
const MANIFEST_COLUMNS = ["image", "row", "csv_row"];
/** About what an image's entry (its name and place) takes in memory. */
const ENTRY_BYTES = 160;

export interface GalleryRow {
  /** The pixel row, 0 at the top. */
  row: number;
  /** The session's data row in features.csv (1-based). */
  csvRow: number;
  /** The manifest's label columns for it (labelColumns), empty when unlabelled. */
  labels: string[];
  /** The session, or null when the CSV has no session key columns. */
  session: SessionKey | null;
}

export interface GalleryImage {
  /** The number in the entry's name (images/image-000001.png is 1). */
  number: number;
  name: string;
  rows: GalleryRow[];
}

export interface ImageGallery {
  readonly images: number;
  /** Manifest lines: sessions drawn. */
  readonly sessions: number;
  /** The manifest's columns after image, row, csv_row (label, or label, class_id, class). */
  readonly labelColumns: readonly string[];
  /** The most manifest lines of any image. */
  readonly rowsPerImage: number;
  /** Memory the index holds, for a cache's bound. */
  readonly bytes: number;
  /** Images `[offset, offset + limit)` in number order, each with its rows. */
  page(offset: number, limit: number): Promise<GalleryImage[]>;
  /** The PNG of the image with this number, or null when the zip has none. */
  png(number: number): Promise<Buffer | null>;
}

const bad = (label: string, reason: string) => new TracemillError("BAD_INPUT", `${label}: ${reason}`);

/** Opens `file`, an images zip; `label` names it in messages (never a path of the server). */
export async function openImageGallery(file: string, label: string): Promise<ImageGallery> {
  const images: ZipEntryPlace[] = [];
  let csvEntry: ZipEntryPlace | undefined;
  let manifestEntry: ZipEntryPlace | undefined;
  await readZipDirectory(file, label, (entry) => {
    if (entry.name === CSV_ENTRY) csvEntry = entry;
    else if (entry.name === IMAGE_MANIFEST_NAME) manifestEntry = entry;
    else if (IMAGE_NAME.test(entry.name)) images.push(entry);
  });
  if (!csvEntry || !manifestEntry) {
    throw bad(label, `no ${csvEntry ? IMAGE_MANIFEST_NAME : CSV_ENTRY} in the zip: not an images output`);
  }
  const numberOf = (entry: ZipEntryPlace) => Number(IMAGE_NAME.exec(entry.name)?.[1]);
  images.sort((a, b) => numberOf(a) - numberOf(b));
  const numbers = Float64Array.from(images, numberOf);
  for (let i = 1; i < numbers.length; i++) {
    if (numbers[i] === numbers[i - 1]) throw bad(label, `${images[i].name} is in the zip twice`);
  }

  const handle = await fs.promises.open(file, "r");
  let manifest: ManifestIndex;
  let csv: RowIndex;
  let keyColumns: number[] | null;
  try {
    manifest = await indexManifest(handle, await storedRegion(handle, manifestEntry, label), images, label);
    csv = await indexRows(handle, await storedRegion(handle, csvEntry, label), "csv");
    keyColumns = sessionKeyColumns(await csvHeader(handle, csv));
  } finally {
    await handle.close();
  }
  const sessions = manifest.index.table.rows - 1;
  const csvRowCount = Math.max(0, csv.table.rows - 1);

  /** Manifest line of data row `row`, read: image, pixel row, CSV row (checked), labels. */
  function manifestLine(cells: string[], row: number) {
    const whole = (text: string) => (/^\d{1,10}$/.test(text) ? Number(text) : Number.NaN);
    const pixel = whole(cells[1]);
    const csvRow = whole(cells[2]);
    if (Number.isNaN(pixel) || !(csvRow >= 1 && csvRow <= csvRowCount)) {
      throw bad(
        label,
        `${IMAGE_MANIFEST_NAME} data row ${row}: "${cells[1]},${cells[2]}" is not a pixel row and one of the ` +
          `${csvRowCount} rows of ${CSV_ENTRY}`,
      );
    }
    return { row: pixel, csvRow, labels: cells.slice(3, 3 + manifest.labelColumns.length) };
  }

  return {
    images: images.length,
    sessions,
    labelColumns: manifest.labelColumns,
    rowsPerImage: manifest.rowsPerImage,
    bytes:
      numbers.byteLength +
      manifest.imageStarts.byteLength +
      csv.table.starts.byteLength +
      manifest.index.table.starts.byteLength +
      images.length * ENTRY_BYTES,

    async page(offset, limit) {
      const end = Math.min(images.length, offset + limit);
      if (offset >= end) return [];
      const handle = await fs.promises.open(file, "r");
      try {
        const columns = Array.from({ length: 3 + manifest.labelColumns.length }, (_, i) => i);
        const firstRow = manifest.imageStarts[offset];
        const lines = await firstRows(
          csvRows(handle, manifest.index, firstRow, columns),
          manifest.imageStarts[end] - firstRow,
        );
        const page = images.slice(offset, end).map((entry, i) => ({
          number: numbers[offset + i],
          name: entry.name,
          rows: lines
            .slice(manifest.imageStarts[offset + i] - firstRow, manifest.imageStarts[offset + i + 1] - firstRow)
            .map(({ row, cells }) => ({ ...manifestLine(cells, row), session: null as SessionKey | null })),
        }));
        if (keyColumns !== null) {
          const wanted = page.flatMap((image) => image.rows.map((row) => row.csvRow));
          const found = await rowsByNumber(handle, csv, wanted, keyColumns);
          for (const image of page) for (const row of image.rows) row.session = found.get(row.csvRow) ?? null;
        }
        return page;
      } finally {
        await handle.close();
      }
    },

    async png(number) {
      let low = 0;
      let high = numbers.length - 1;
      while (low <= high) {
        const middle = (low + high) >> 1;
        if (numbers[middle] === number) {
          const handle = await fs.promises.open(file, "r");
          try {
            return await entryBytes(handle, images[middle], label);
          } finally {
            await handle.close();
          }
        }
        if (numbers[middle] < number) low = middle + 1;
        else high = middle - 1;
      }
      return null;
    },
  };
}

/** The sessions of CSV data rows (1-based), read run by run: a seek only where the next wanted row is far on. */
async function rowsByNumber(
  handle: fs.promises.FileHandle,
  csv: RowIndex,
  wanted: number[],
  keyColumns: number[],
): Promise<Map<number, SessionKey>> {
  const sorted = [...new Set(wanted)].sort((a, b) => a - b);
  const found = new Map<number, SessionKey>();
  let at = 0;
  while (at < sorted.length) {
    // A run: wanted rows no more than a stride apart are read in one go.
    let last = at;
    while (last + 1 < sorted.length && sorted[last + 1] - sorted[last] <= ROW_STRIDE) last++;
    const want = new Set(sorted.slice(at, last + 1));
    const rows = await firstRows(csvRows(handle, csv, sorted[at], keyColumns), sorted[last] - sorted[at] + 1);
    for (const { row, cells } of rows) if (want.has(row)) found.set(row, sessionKey(cells));
    at = last + 1;
  }
  return found;
}

interface ManifestIndex {
  index: RowIndex;
  labelColumns: string[];
  /** Entry i: the manifest data row where image i's lines start; the last entry is one past the last line. */
  imageStarts: Float64Array;
  rowsPerImage: number;
}

/**
 * Indexes the manifest in one pass: its rows' starts, and where each image's lines begin. Lines come image after
 * image, in the zip's image order, as Tracemill writes them; anything else is refused, naming the line.
 */
async function indexManifest(
  handle: fs.promises.FileHandle,
  region: { start: number; length: number },
  images: ZipEntryPlace[],
  label: string,
): Promise<ManifestIndex> {
  const where = `${label}: ${IMAGE_MANIFEST_NAME}`;
  const imageStarts = new Float64Array(images.length + 1);
  let header: string[] | null = null;
  let image = -1;
  /** The current line's image name, decoded only when its bytes differ from the line before's (n lines per name). */
  let name = "";
  let nameBytes = new Uint8Array(0);
  let changed = false;
  let rows = 0;
  let rowsPerImage = 0;
  let problem: TracemillError | null = null;
  const cellText = cellReader();
  const onHeader = (cells: string[], line: number) => {
    header = cells;
    if (MANIFEST_COLUMNS.some((column, i) => cells[i] !== column)) {
      problem = new TracemillError("BAD_INPUT", `${where} line ${line}: the header is not image,row,csv_row[,…]`);
    }
  };
  const lines = {
    cell(column: number, bytes: Uint8Array, start: number, end: number) {
      if (column === 0 && !sameBytes(nameBytes, bytes, start, end)) {
        // A copy: the bytes may be a view of a chunk that the next read fills again.
        nameBytes = Uint8Array.prototype.slice.call(bytes, start, end);
        name = cellText(nameBytes, 0, nameBytes.length);
        changed = true;
      }
    },
    row(_cells: number, line: number) {
      if (problem) return;
      rows++;
      if (changed) {
        changed = false;
        image++;
        if (image >= images.length || images[image].name !== name) {
          const expected = image < images.length ? `, not ${images[image].name}` : "";
          problem = new TracemillError(
            "BAD_INPUT",
            `${where} line ${line}: ${name} is not the zip's next image${expected}: lines go image after image`,
          );
          return;
        }
        imageStarts[image] = rows;
        if (image > 0) rowsPerImage = Math.max(rowsPerImage, rows - imageStarts[image - 1]);
      }
    },
  };
  const scanner = new CsvScanner(new HeaderThenRows(cellText, onHeader, lines));
  const index = await indexRows(handle, region, "csv", (chunk) => {
    if (!problem) scanner.push(chunk);
  });
  if (!problem) scanner.end();
  if (problem) throw problem;
  if (header === null) throw new TracemillError("BAD_INPUT", `${where} is empty: it has no header line`);
  if (image + 1 !== images.length) {
    const missing = images[image + 1].name;
    throw new TracemillError(
      "BAD_INPUT",
      `${where}: no line for ${missing} (${images.length} images, ${image + 1} listed)`,
    );
  }
  imageStarts[images.length] = rows + 1;
  if (image >= 0) rowsPerImage = Math.max(rowsPerImage, rows + 1 - imageStarts[image]);
  return { index, labelColumns: (header as string[]).slice(3), imageStarts, rowsPerImage };
}

function sameBytes(known: Uint8Array, bytes: Uint8Array, start: number, end: number): boolean {
  if (known.length !== end - start) return false;
  for (let i = 0; i < known.length; i++) if (known[i] !== bytes[start + i]) return false;
  return true;
}

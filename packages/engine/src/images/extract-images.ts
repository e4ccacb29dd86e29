// The images capability: each session's first 280 IP bytes as a grayscale row, n rows per PNG, zipped with the
// manifest and the feature CSV (with labels when asked), all from one pass over the capture.
import fs from "node:fs";
import path from "node:path";
import { IMAGE_MANIFEST_NAME, ImageRows, PacketRecord, RowBuilder, TracemillError } from "@tracemill/core";
import type { CapabilityResult, RunOptions } from "../capability.js";
import {
  createLabeller,
  type LabelSourceOptions,
  labelOptionsForParts,
  labelSourceSummary,
  type SessionLabeller,
} from "../labels/index.js";
import { writeSummary, ZipWriter } from "../output/index.js";
import { cicCompatRefused, runSessionPass, type SessionPassOptions } from "../pass/index.js";
import { ImageSheets } from "./image-sheets.js";

export const IMAGES_ZIP_FILE = "images.zip";
export const IMAGES_CSV_ENTRY = "features.csv";

export interface ImagesOptions extends SessionPassOptions, LabelSourceOptions {
  /** Sessions (rows) per image, ≥ 1. */
  flowsPerImage: number;
  /** Keep IP addresses and ports in the rows (they are zeroed by default). */
  keepAddresses?: boolean;
}

/** The largest image height accepted: 2^16 rows keeps every PNG well within what viewers and libraries open. */
const MAX_FLOWS_PER_IMAGE = 65_536;

/** Writes images.zip and summary.json into `run.outDir`. */
export async function extractImages(
  capture: string | readonly string[],
  given: ImagesOptions,
  run: RunOptions,
): Promise<CapabilityResult> {
  if (given.cicCompat) throw cicCompatRefused("images");
  const captures = typeof capture === "string" ? [capture] : capture;
  const options = labelOptionsForParts(captures, given);
  const n = options.flowsPerImage;
  if (!Number.isInteger(n) || n < 1 || n > MAX_FLOWS_PER_IMAGE) {
    throw new TracemillError("BAD_OPTION", `flows per image must be a whole number from 1 to ${MAX_FLOWS_PER_IMAGE}`, {
      flowsPerImage: n,
    });
  }
  const keepAddresses = options.keepAddresses === true;
  const labelled = options.attacks !== undefined || options.alerts !== undefined;
  const labeller: SessionLabeller | undefined = labelled
    ? (await createLabeller(captures[0], options, run)).labeller
    : undefined;
  const scratch = await fs.promises.mkdtemp(path.join(run.outDir, ".images-"));
  // The CSV is written in place as the zip's first entry: the zip file starts as the CSV, the images go to a tail.
  let zip: ZipWriter | undefined;
  let sheets: ImageSheets | undefined;
  try {
    zip = new ZipWriter(path.join(run.outDir, IMAGES_ZIP_FILE), IMAGES_CSV_ENTRY, path.join(scratch, "tail.zip"));
    sheets = new ImageSheets(
      zip,
      n,
      path.join(scratch, IMAGE_MANIFEST_NAME),
      (labeller?.columns ?? []).map((column) => column.name),
    );
  } catch (error) {
    await zip?.discard();
    await fs.promises.rm(scratch, { recursive: true, force: true });
    throw error;
  }
  const labelText = new RowBuilder();
  const perLabel: Record<string, number> = { "0": 0, "1": 0 };
  /** Every record's row, by store slot. */
  const rows = new ImageRows();
  try {
    const pass = await runSessionPass(
      captures,
      { file: zip.lead, name: IMAGES_CSV_ENTRY },
      labeller?.columns ?? [],
      {
        createState: () => undefined,
        // A session's sequence number is its CSV data row (0-based), and its row's place in its image.
        onStart(_state, session) {
          sheets.place(rows, session.slot, session.seq);
        },
        onPacket(session, packet, captured) {
          // Most packets come after their row is full: one look at a byte by slot, no record touched.
          const slot = packet.slot;
          if (rows.filling[slot] === 1) {
            // The reader's own record gives its buffer and offset: no view made per packet. A full row is final:
            // its image can be encoded before this session ends.
            const full =
              captured instanceof PacketRecord
                ? rows.append(
                    slot,
                    captured.buffer,
                    captured.offset,
                    captured.capturedLength,
                    packet.decoded,
                    keepAddresses,
                  )
                : rows.append(slot, captured.data, 0, captured.data.length, packet.decoded, keepAddresses);
            if (full) sheets.final(session.seq, slot);
          }
          labeller?.onPacket?.(session, packet);
        },
        onEnd(_state, session, row) {
          if (rows.end(session.slot)) sheets.final(session.seq, session.slot);
          if (!labeller) return;
          labelText.start();
          const label = labeller.label(session);
          labeller.write(label, row);
          labeller.write(label, labelText);
          perLabel[label.label]++;
          sheets.labels(session.seq, labelText.bytes.slice(0, labelText.length));
        },
      },
      options,
      run,
    );
    const counts = sheets.finish();
    zip.addFile(path.join(scratch, IMAGE_MANIFEST_NAME), IMAGE_MANIFEST_NAME, sheets.manifestCrc, sheets.manifestSize);
    await zip.finish();
    const summary = {
      ...pass,
      options: { ...pass.options, flowsPerImage: n, keepAddresses, ...labelSourceSummary(options) },
      images: { images: counts.images, rows: counts.rows, flowsPerImage: n, keepAddresses },
      ...(labeller ? { labels: { method: labeller.method, ...labeller.summary(), sessions: perLabel } } : {}),
    };
    await writeSummary(run.outDir, summary);
    return {
      outputs: [
        { name: IMAGES_ZIP_FILE, kind: "images-zip" },
        { name: "summary.json", kind: "summary-json" },
      ],
      summary,
    };
  } catch (error) {
    sheets.discard();
    await zip.discard();
    throw error;
  } finally {
    await fs.promises.rm(scratch, { recursive: true, force: true });
  }
}

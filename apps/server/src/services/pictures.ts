// The image gallery and the IPT plots of a readable job's outputs, answered from indexes of the whole output
// (engine/browse) held in memory (output-indexes.ts). Who may read is the downloads' rule (jobs.output): the owner,
// or anyone for a public job; 404 otherwise.
import {
  type GalleryPage,
  IPT_SEARCH_SCAN_ROWS,
  type IptSeriesAnswer,
  type IptSessionPage,
  MAX_GALLERY_PAGE_ROWS,
  MAX_IPT_GAPS,
  parseGalleryQuery,
  parseIptSeriesQuery,
  parseIptSessionsQuery,
} from "@tracemill/contracts";
import { parseSessionQuery } from "@tracemill/core";
import { type ImageGallery, type IptOutput, openImageGallery, openIptOutput } from "@tracemill/engine";
import type { CurrentUser } from "./accounts.js";
import { answered, HttpError } from "./http-error.js";
import type { JobsService } from "./jobs.js";
import { fileStamp, outputIndexes } from "./output-indexes.js";

/** Memory the indexes may hold: a 100 000-image zip's index is about 20 MB, most outputs' far less. */
const INDEX_BYTES = 64 * 1024 * 1024;
const IMAGES_KIND = "images-zip";
const IPT_KIND = "ipt-txt";
const CSV_KIND = "features-csv";

function queryOf<T>(parsed: { query: T } | { messages: string[] }): T {
  if ("messages" in parsed) throw new HttpError(400, parsed.messages);
  return parsed.query;
}

export function picturesService(jobs: JobsService) {
  const galleries = outputIndexes<ImageGallery>(INDEX_BYTES);
  const ipts = outputIndexes<IptOutput>(INDEX_BYTES);

  async function gallery(user: CurrentUser | null, id: string, name: string) {
    const output = await jobs.output(user, id, name);
    if (output.kind !== IMAGES_KIND) {
      throw new HttpError(400, [`${output.name} is no images zip: the gallery reads an images job's output`]);
    }
    const stamp = await fileStamp(output.path);
    const opened = galleries.get(`${output.job.id}/${output.name}`, stamp, () =>
      openImageGallery(output.path, output.name),
    );
    return { name: output.name, gallery: await answered(opened) };
  }

  async function ipt(user: CurrentUser | null, id: string, name: string) {
    const output = await jobs.output(user, id, name);
    if (output.kind !== IPT_KIND) {
      throw new HttpError(400, [`${output.name} is no IPT output: the plots read an ipt job's ipt.txt`]);
    }
    const csv = (await jobs.outputs(user, id)).files.find((file) => file.kind === CSV_KIND);
    if (!csv) throw new HttpError(422, [`${output.name} has no features CSV beside it to name its sessions`]);
    const stamp = `${await fileStamp(output.path)}/${await fileStamp(csv.path)}`;
    const opened = ipts.get(`${output.job.id}/${output.name}`, stamp, () =>
      openIptOutput({
        ipt: { path: output.path, label: output.name },
        csv: { path: csv.path, label: csv.name },
      }),
    );
    return { name: output.name, output: await answered(opened) };
  }

  return {
    async galleryPage(user: CurrentUser | null, id: string, name: string, raw: unknown): Promise<GalleryPage> {
      const { offset, limit: asked } = queryOf(parseGalleryQuery(raw));
      const { name: output, gallery: opened } = await gallery(user, id, name);
      // Tall images fill a page with fewer of them: a page's sessions stay a few thousand whatever the height.
      const limit = Math.max(1, Math.min(asked, Math.floor(MAX_GALLERY_PAGE_ROWS / Math.max(1, opened.rowsPerImage))));
      const images = await answered(opened.page(offset, limit));
      return {
        output,
        total: opened.images,
        sessions: opened.sessions,
        labelColumns: [...opened.labelColumns],
        offset,
        limit,
        nextOffset: offset + limit < opened.images ? offset + limit : null,
        images,
      };
    },

    /** The PNG of image `number` (as its entry names it), checked against the zip's CRC-32. */
    async image(user: CurrentUser | null, id: string, name: string, number: string): Promise<Buffer> {
      const { name: output, gallery: opened } = await gallery(user, id, name);
      const range = opened.images === 0 ? "it has none" : `its images are numbered 1 to ${opened.images}`;
      if (!/^\d{1,9}$/.test(number)) throw new HttpError(400, [`Invalid image number "${number}": ${range}`]);
      const png = await answered(opened.png(Number(number)));
      if (png === null) throw new HttpError(404, [`${output} has no image ${Number(number)}: ${range}`]);
      return png;
    },

    async iptSessions(user: CurrentUser | null, id: string, name: string, raw: unknown): Promise<IptSessionPage> {
      const { q, from, limit, minPackets } = queryOf(parseIptSessionsQuery(raw));
      const query = parseSessionQuery(q);
      if ("error" in query) throw new HttpError(400, [`Invalid query parameter q: ${query.error}`]);
      const { name: output, output: opened } = await ipt(user, id, name);
      const found = await answered(opened.find(query, { from, limit, minPackets, scan: IPT_SEARCH_SCAN_ROWS }));
      return { output, total: opened.sessions, ...found };
    },

    async iptSeries(user: CurrentUser | null, id: string, name: string, raw: unknown): Promise<IptSeriesAnswer> {
      const { rows } = queryOf(parseIptSeriesQuery(raw));
      const { name: output, output: opened } = await ipt(user, id, name);
      const beyond = rows.filter((row) => row > opened.sessions);
      if (beyond.length > 0) {
        throw new HttpError(400, [
          `Invalid query parameter rows: ${output} has ${opened.sessions} sessions, not a row ${beyond[0]}`,
        ]);
      }
      return { output, maxGaps: MAX_IPT_GAPS, series: await answered(opened.series(rows, MAX_IPT_GAPS)) };
    },
  };
}

export type PicturesService = ReturnType<typeof picturesService>;

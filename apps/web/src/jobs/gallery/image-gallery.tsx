// An images job's gallery on its details: the zip's images a page at a time as the server reads them (every image of
// the whole output, not a first few unzipped in the browser), each a thumbnail that opens it enlarged beside the
// sessions its rows came from.
import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { GalleryImage, Job } from "@tracemill/contracts";
import { useId, useRef, useState } from "react";
import { api, messagesOf } from "../../api/client.js";
import { ErrorBanners } from "../../forms/fields.js";
import { formatNumber } from "../explorer/table-outputs.js";
import { ImageZoom } from "./image-zoom.js";

/** Images per page: four rows of the grid on a wide screen. */
export const GALLERY_PAGE = 24;

/** "sessions 17–32" and, in a labelled zip, how many rows are attacks. */
export function imageCaption(image: GalleryImage, labelColumns: readonly string[]): string {
  const rows = image.rows.map((row) => row.csvRow);
  const span = rows.length === 0 ? "no sessions" : `sessions ${Math.min(...rows)}–${Math.max(...rows)}`;
  if (labelColumns[0] !== "label") return span;
  const attacks = image.rows.filter((row) => row.labels[0] !== undefined && row.labels[0] !== "0").length;
  return `${span}, ${attacks} attack`;
}

export function ImageGallery({ job, name }: { job: Job; name: string }) {
  const [offset, setOffset] = useState(0);
  const [zoomed, setZoomed] = useState<number | null>(null);
  const thumbs = useRef<(HTMLButtonElement | null)[]>([]);
  const id = useId();
  const page = useQuery({
    queryKey: ["gallery", job.id, name, offset],
    queryFn: () => api.galleryPage(job.id, name, { offset, limit: GALLERY_PAGE }),
    // An output never changes once its job succeeded; the last page stays while the next one comes.
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  const data = page.data;
  const close = () => {
    const at = zoomed;
    setZoomed(null);
    // Focus goes back to the thumbnail the dialog was opened from.
    if (at !== null) thumbs.current[at]?.focus();
  };
  return (
    <section className="gallery" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Images</h2>
      {page.error && <ErrorBanners messages={messagesOf(page.error)} />}
      {!data && !page.error && <p aria-busy="true">Reading {name}…</p>}
      {data && (
        <>
          <p>
            {data.total === 0
              ? `${name} holds no images.`
              : `Images ${formatNumber(data.offset + 1)}–${formatNumber(data.offset + data.images.length)} of ` +
                `${formatNumber(data.total)}: ${formatNumber(data.sessions)} sessions, one per pixel row.`}
          </p>
          <nav className="gallery-pages" aria-label="Gallery pages">
            <button
              type="button"
              disabled={data.offset === 0}
              onClick={() => setOffset(Math.max(0, data.offset - data.limit))}
            >
              Previous images
            </button>
            <button
              type="button"
              disabled={data.nextOffset === null}
              onClick={() => data.nextOffset !== null && setOffset(data.nextOffset)}
            >
              Next images
            </button>
          </nav>
          <ul className="gallery-grid" aria-busy={page.isPlaceholderData}>
            {data.images.map((image, i) => (
              <li key={image.number}>
                <button
                  type="button"
                  className="gallery-thumb"
                  aria-haspopup="dialog"
                  ref={(element) => {
                    thumbs.current[i] = element;
                  }}
                  onClick={() => setZoomed(i)}
                >
                  <img
                    className="pixelated"
                    src={api.imageUrl(job.id, name, image.number)}
                    alt={`Sessions drawn in grayscale: ${image.name}`}
                  />
                </button>
                <span className="gallery-caption">
                  #{image.number}: {imageCaption(image, data.labelColumns)}
                </span>
              </li>
            ))}
          </ul>
          {zoomed !== null && data.images[zoomed] && (
            <ImageZoom
              image={data.images[zoomed]}
              url={api.imageUrl(job.id, name, data.images[zoomed].number)}
              labelColumns={data.labelColumns}
              onClose={close}
              onStep={(step) => setZoomed((at) => Math.min(data.images.length - 1, Math.max(0, (at ?? 0) + step)))}
              first={zoomed === 0}
              last={zoomed === data.images.length - 1}
            />
          )}
        </>
      )}
    </section>
  );
}

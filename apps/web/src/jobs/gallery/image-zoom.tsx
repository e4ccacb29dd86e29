// One image of the gallery enlarged in a modal dialog: every pixel row as tall as a line of text, beside it the
// session the row came from (and its labels), so each band of bytes reads with its session. The dialog pattern of
// WAI-ARIA: focus moves in and stays in (Tab wraps), Escape closes, and focus returns to where it was opened.
import type { GalleryImage } from "@tracemill/contracts";
import { type KeyboardEvent, useEffect, useId, useRef, useState } from "react";
import { sessionText, startText } from "../session-text.js";

/** A pixel row's height on screen, in CSS pixels: the height of a row of the table beside it (styles.css). */
export const ZOOM_ROW_PX = 20;
const WIDTHS = [1, 2, 3, 4];
const FOCUSABLE = "button:not([disabled]), select:not([disabled]), [tabindex]:not([tabindex='-1'])";

export function ImageZoom(props: {
  image: GalleryImage;
  url: string;
  labelColumns: readonly string[];
  onClose: () => void;
  /** Shows the previous (-1) or next (1) image of the page. */
  onStep: (step: number) => void;
  first: boolean;
  last: boolean;
}) {
  const { image, url, labelColumns, onClose, onStep, first, last } = props;
  const titleId = useId();
  const dialog = useRef<HTMLDivElement>(null);
  const closeButton = useRef<HTMLButtonElement>(null);
  const [width, setWidth] = useState(2);
  const [loaded, setLoaded] = useState<{ number: number; height: number }>();
  const [marked, setMarked] = useState<number | null>(null);
  // The PNG's own height (padded rows included) once it is loaded; until then the rows listed.
  const listed = Math.max(0, ...image.rows.map((row) => row.row + 1));
  const rows = loaded?.number === image.number ? loaded.height : listed;

  useEffect(() => {
    closeButton.current?.focus();
  }, []);

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === "Escape") {
      event.stopPropagation();
      onClose();
      return;
    }
    if (event.key !== "Tab" || !dialog.current) return;
    const focusable = [...dialog.current.querySelectorAll<HTMLElement>(FOCUSABLE)];
    if (focusable.length === 0) return;
    const [firstItem, lastItem] = [focusable[0], focusable[focusable.length - 1]];
    if (event.shiftKey && document.activeElement === firstItem) {
      event.preventDefault();
      lastItem.focus();
    } else if (!event.shiftKey && document.activeElement === lastItem) {
      event.preventDefault();
      firstItem.focus();
    }
  }

  return (
    <div className="zoom-backdrop">
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        className="zoom-dialog"
        onKeyDown={onKeyDown}
      >
        <div className="zoom-header">
          <h3 id={titleId}>
            Image {image.number}: {image.name}
          </h3>
          <label>
            Pixel width{" "}
            <select value={width} onChange={(event) => setWidth(Number(event.target.value))}>
              {WIDTHS.map((value) => (
                <option key={value} value={value}>
                  {value}×
                </option>
              ))}
            </select>
          </label>
          <button type="button" disabled={first} onClick={() => onStep(-1)}>
            Previous image
          </button>
          <button type="button" disabled={last} onClick={() => onStep(1)}>
            Next image
          </button>
          <button type="button" ref={closeButton} onClick={onClose}>
            Close
          </button>
        </div>
        <div className="zoom-body">
          <img
            className="pixelated zoom-image"
            src={url}
            alt={`${image.name} enlarged: ${rows} rows of 280 bytes, one session each`}
            width={280 * width}
            height={rows * ZOOM_ROW_PX}
            onLoad={(event) => setLoaded({ number: image.number, height: event.currentTarget.naturalHeight })}
          />
          <table className="zoom-rows">
            <caption className="visually-hidden">The session of each pixel row of {image.name}</caption>
            <thead className="visually-hidden">
              <tr>
                <th scope="col">Row</th>
                <th scope="col">Session</th>
                <th scope="col">Start</th>
                {labelColumns.map((column) => (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {image.rows.map((row) => (
                <tr
                  key={row.row}
                  className={marked === row.row ? "marked" : undefined}
                  onMouseEnter={() => setMarked(row.row)}
                  onMouseLeave={() => setMarked(null)}
                >
                  <td>{row.row}</td>
                  <td title={`CSV row ${row.csvRow}`}>{row.session ? sessionText(row.session) : "—"}</td>
                  <td title={row.session?.start}>{row.session ? startText(row.session.start) : ""}</td>
                  {labelColumns.map((column, i) => (
                    <td key={column}>{row.labels[i] ?? ""}</td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </div>
    </div>
  );
}

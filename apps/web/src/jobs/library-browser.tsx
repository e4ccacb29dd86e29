// Browses the server's capture libraries for a job input: a library, its folders one level at a time (breadcrumbs
// lead back), and its captures with size, format, packets and time span; picking one uses it in place, no upload.

import { useQuery } from "@tanstack/react-query";
import type { Library, LibraryEntry } from "@tracemill/contracts";
import { useId, useState } from "react";
import { api, messagesOf } from "../api/client.js";
import { formatBytes } from "./format-bytes.js";
import { formatCount } from "./job-figures.js";

type Capture = Extract<LibraryEntry, { type: "capture" }>;

/** While captures of the folder are still being read by the server, the listing is asked again this often. */
const PENDING_POLL_MS = 2000;

/** "2004-09-16 00:00:01 UTC, 0.028 s": when the capture starts and how long it lasts. */
function timeSpan(capture: Capture): string {
  const info = capture.info;
  if (!info?.first) return "—";
  const start = `${info.first.slice(0, 19).replace("T", " ")} UTC`;
  return info.duration === null ? start : `${start}, ${Number(info.duration).toFixed(3)} s`;
}

function packets(capture: Capture): string {
  if (capture.pending) return "reading…";
  if (capture.problem) return `unreadable: ${capture.problem}`;
  if (!capture.info) return "—";
  const count = formatCount(capture.info.packets);
  return capture.info.complete ? count : `${count} (damaged ${capture.info.damage ?? ""})`;
}

export function LibraryBrowser(props: {
  label: string;
  libraries: Library[];
  /** The library file chosen now, if any. */
  chosen?: { library: string; path: string };
  onPick(library: string, capture: Capture): void;
}) {
  const { label, libraries, chosen, onPick } = props;
  const id = useId();
  const [library, setLibrary] = useState(chosen?.library ?? libraries[0]?.name ?? "");
  const [folder, setFolder] = useState(() => (chosen ? chosen.path.split("/").slice(0, -1).join("/") : ""));
  const listing = useQuery({
    queryKey: ["library", library, folder],
    queryFn: () => api.libraryFolder(library, folder),
    enabled: library !== "",
    retry: false,
    refetchInterval: (query) =>
      query.state.data?.entries.some((entry) => entry.type === "capture" && entry.pending) ? PENDING_POLL_MS : false,
  });
  const segments = folder === "" ? [] : folder.split("/");
  const entries = listing.data?.entries ?? [];

  return (
    <div className="library-browser">
      <div className="field">
        <label htmlFor={`${id}-library`}>Library</label>
        <select
          id={`${id}-library`}
          value={library}
          onChange={(e) => {
            setLibrary(e.target.value);
            setFolder("");
          }}
        >
          {libraries.map((l) => (
            <option key={l.name} value={l.name}>
              {l.name}
            </option>
          ))}
        </select>
      </div>
      <nav aria-label={`${label}: folder`}>
        <ol className="breadcrumbs">
          {[library, ...segments].map((name, index) => {
            const target = segments.slice(0, index).join("/");
            const current = index === segments.length;
            return (
              <li key={`/${target}`}>
                {current ? (
                  <span aria-current="location">{name}</span>
                ) : (
                  <button type="button" className="link-button" onClick={() => setFolder(target)}>
                    {name}
                  </button>
                )}
              </li>
            );
          })}
        </ol>
      </nav>
      {listing.isError && (
        <p className="field-error" role="alert">
          {messagesOf(listing.error).join(" ") || "The folder could not be listed"}
        </p>
      )}
      {listing.isPending && library !== "" && <p className="hint">Listing…</p>}
      {listing.isSuccess && entries.length === 0 && <p className="hint">No folders or captures here.</p>}
      {entries.length > 0 && (
        <div className="table-scroll">
          <table className="wide library-entries">
            <caption className="visually-hidden">Folders and captures in {[library, ...segments].join("/")}</caption>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Size</th>
                <th scope="col">Format</th>
                <th scope="col">Packets</th>
                <th scope="col">Time span</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) =>
                entry.type === "directory" ? (
                  <tr key={entry.path}>
                    <td colSpan={5}>
                      <button
                        type="button"
                        className="link-button"
                        aria-label={`Open folder ${entry.name}`}
                        onClick={() => setFolder(entry.path)}
                      >
                        {entry.name}/
                      </button>
                    </td>
                  </tr>
                ) : (
                  <tr
                    key={entry.path}
                    className={chosen?.library === library && chosen.path === entry.path ? "chosen" : undefined}
                  >
                    <td>
                      <button
                        type="button"
                        className="link-button"
                        aria-label={`Use ${entry.name}`}
                        onClick={() => onPick(library, entry)}
                      >
                        {entry.name}
                      </button>
                    </td>
                    <td>{formatBytes(entry.size)}</td>
                    <td>
                      {entry.format}
                      {entry.compression && ` (${entry.compression})`}
                    </td>
                    <td>{packets(entry)}</td>
                    <td>{timeSpan(entry)}</td>
                  </tr>
                ),
              )}
            </tbody>
          </table>
        </div>
      )}
    </div>
  );
}

// Picks one job input: a file dropped or chosen (checked here, its digest begun, uploaded only when the job is created:
// upload-picked.ts), an earlier job's output, or, for a capture, a file of one of the server's capture libraries.

import { useQuery } from "@tanstack/react-query";
import type { Capability, FileRef } from "@tracemill/contracts";
import { type DragEvent, useId, useState } from "react";
import { api } from "../api/client.js";
import { FileIcon, type FileKind, fileKindOf } from "../icons/file-icons.js";
import { acceptByKind, checkFile, type InputKind } from "./file-check.js";
import { sha256OfFile } from "./file-digest.js";
import { formatBytes } from "./format-bytes.js";
import { LibraryBrowser } from "./library-browser.js";
import { type SourceTab, SourceTabs, tabPanelProps } from "./source-tabs.js";

export { formatBytes };

const iconByKind: Record<InputKind, FileKind> = {
  capture: "pcap",
  alerts: "u2",
  classification: "csv-class",
  rules: "other",
};

/** A file from the user's disk, not on the server yet: the wizard uploads it (or finds it there) on submit. */
export interface LocalFile {
  local: File;
}

export interface PickedFile {
  ref: FileRef | LocalFile;
  name: string;
  size?: number;
  /** For an earlier job's output: that job's capability (a merge output carries its provenance). */
  fromCapability?: Capability;
  /** Why its upload failed when the job was submitted; picking another file clears it. */
  problem?: string;
}

export const isLocal = (ref: PickedFile["ref"]): ref is LocalFile => "local" in ref;

type Source = "upload" | "library";
const SOURCES: SourceTab<Source>[] = [
  { value: "upload", label: "Upload or earlier job" },
  { value: "library", label: "From a library" },
];

const outputPatterns: Record<InputKind, RegExp> = {
  capture: /\.(pcap|pcapng|cap|dmp|erf)(\.gz)?$/i,
  alerts: /(\.u2|unified2[^/]*|eve[^/]*\.json)$/i,
  classification: /\.(config|txt)$/i,
  rules: /\.rules$/i,
};

export function FilePicker(props: {
  label: string;
  kind: InputKind;
  value: PickedFile | undefined;
  onChange(value: PickedFile | undefined): void;
  required?: boolean;
}) {
  const { label, kind, value, onChange } = props;
  const id = useId();
  const [error, setError] = useState<string>();
  const [dragging, setDragging] = useState(false);
  const jobs = useQuery({ queryKey: ["jobs", "mine", "all"], queryFn: api.allMyJobs });
  // Libraries hold captures only; a server without any (or an older one) shows no library tab.
  const libraries = useQuery({
    queryKey: ["libraries"],
    queryFn: api.libraries,
    retry: false,
    enabled: kind === "capture",
  });
  const hasLibraries = kind === "capture" && (libraries.data?.length ?? 0) > 0;
  const [source, setSource] = useState<Source>(value && "library" in value.ref ? "library" : "upload");
  const fromLibrary = hasLibraries && source === "library";
  const outputs = (jobs.data ?? [])
    .filter((job) => job.status === "succeeded")
    .flatMap((job) =>
      job.outputs
        .filter((output) => outputPatterns[kind].test(output.name))
        .map((output) => ({ job, output, key: `${job.id}/${output.name}` })),
    );

  async function take(file: File) {
    setError(undefined);
    onChange(undefined);
    const problem = await checkFile(file, kind);
    if (problem) return setError(problem);
    onChange({ ref: { local: file }, name: file.name, size: file.size });
    // Nothing is sent yet, but the digest the submit needs can be read while the user goes on (file-digest.ts).
    sha256OfFile(file).catch(() => {});
  }

  function onDrop(event: DragEvent) {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file) void take(file);
  }

  const shownError = error ?? value?.problem;
  return (
    <fieldset className="file-picker">
      <legend>
        {label}
        {props.required && <span aria-hidden="true"> *</span>}
      </legend>
      {hasLibraries && (
        <SourceTabs
          label={`${label}: source`}
          idPrefix={id}
          tabs={SOURCES}
          value={source}
          onChange={(next) => setSource(next)}
        />
      )}
      {fromLibrary ? (
        <div {...tabPanelProps(id, "library", true)}>
          <LibraryBrowser
            label={label}
            libraries={libraries.data ?? []}
            chosen={value && "library" in value.ref ? value.ref : undefined}
            onPick={(library, capture) => {
              setError(undefined);
              onChange({ ref: { library, path: capture.path }, name: capture.name, size: capture.size });
            }}
          />
        </div>
      ) : (
        <div {...tabPanelProps(id, "upload", hasLibraries)}>
          <label
            htmlFor={`${id}-file`}
            className={`drop-zone ${dragging ? "dragging" : ""}`}
            onDragOver={(e) => {
              e.preventDefault();
              setDragging(true);
            }}
            onDragLeave={() => setDragging(false)}
            onDrop={onDrop}
          >
            <FileIcon kind={iconByKind[kind]} size={28} />
            <span>Drop a file here, or </span>
            <span className="button">choose a file</span>
            <input
              id={`${id}-file`}
              className="visually-hidden"
              type="file"
              accept={acceptByKind[kind]}
              aria-label={`${label}: choose a file`}
              onChange={(e) => {
                const file = e.target.files?.[0];
                if (file) void take(file);
                e.target.value = "";
              }}
            />
          </label>
          {outputs.length > 0 && (
            <div className="field">
              <label htmlFor={`${id}-output`}>Or use an output of an earlier job</label>
              <select
                id={`${id}-output`}
                value={value && "jobId" in value.ref ? `${value.ref.jobId}/${value.ref.output}` : ""}
                onChange={(e) => {
                  const picked = outputs.find((o) => o.key === e.target.value);
                  setError(undefined);
                  onChange(
                    picked
                      ? {
                          ref: { jobId: picked.job.id, output: picked.output.name },
                          name: `${picked.job.title} / ${picked.output.name}`,
                          size: picked.output.size,
                          fromCapability: picked.job.capability,
                        }
                      : undefined,
                  );
                }}
              >
                <option value="">—</option>
                {outputs.map((o) => (
                  <option key={o.key} value={o.key}>
                    {o.job.title} / {o.output.name}
                  </option>
                ))}
              </select>
            </div>
          )}
        </div>
      )}
      {value && (
        <p className="picked" data-testid="picked-file">
          <FileIcon kind={fileKindOf("", value.name)} size={24} /> {value.name}
          {value.size !== undefined && ` (${formatBytes(value.size)})`}
          {isLocal(value.ref) && <small className="hint"> — sent when the job is created</small>}
        </p>
      )}
      {shownError && (
        <p className="field-error" role="alert">
          {shownError}
        </p>
      )}
    </fieldset>
  );
}

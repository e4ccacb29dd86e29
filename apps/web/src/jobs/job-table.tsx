// Jobs as a dense table, one row each: title (to its details), capability, status in words, inputs, sessions, size,
// created, runtime, and the owner's actions. Sortable headers say their order (aria-sort); the server sorts.
import type { Job, JobSortKey } from "@tracemill/contracts";
import { Link } from "react-router";
import { capabilityNames } from "../icons/capability-icons.js";
import { type JobActionHandlers, JobActions } from "./job-actions.js";
import { formatCount, formatCreated, formatRuntime, outputSize } from "./job-figures.js";
import { outcomeLabel, outcomeOf } from "./job-outcome.js";
import type { ListView } from "./list-view.js";

const columns: { label: string; sort?: JobSortKey; numeric?: boolean }[] = [
  { label: "Title", sort: "title" },
  { label: "Capability", sort: "capability" },
  { label: "Status", sort: "status" },
  { label: "Inputs" },
  { label: "Sessions", sort: "sessions", numeric: true },
  { label: "Size", sort: "size", numeric: true },
  { label: "Created", sort: "created" },
  { label: "Runtime", sort: "runtime", numeric: true },
];

/** Names shown before "+N more": a job over many captures keeps its row one line high. */
const SHOWN_INPUTS = 3;

export interface JobTableProps {
  label: string;
  jobs: Job[];
  view: ListView;
  onSort(sort: JobSortKey): void;
  /** Shared Jobs: whose each job is. */
  showOwner?: boolean;
  /** My Jobs: the owner's actions; without them the table is read-only. */
  actions?: JobActionHandlers;
}

export function JobTable({ label, jobs, view, onSort, showOwner, actions }: JobTableProps) {
  return (
    <div className="table-scroll">
      <table className="job-table wide" aria-label={label}>
        <thead>
          <tr>
            {columns.map((column) => (
              <th
                key={column.label}
                scope="col"
                className={column.numeric ? "number" : undefined}
                aria-sort={
                  column.sort === undefined || column.sort !== view.sort
                    ? undefined
                    : view.order === "asc"
                      ? "ascending"
                      : "descending"
                }
              >
                {column.sort === undefined ? (
                  column.label
                ) : (
                  <button type="button" className="sort-button" onClick={() => onSort(column.sort!)}>
                    {column.label}
                  </button>
                )}
              </th>
            ))}
            {showOwner && <th scope="col">Owner</th>}
            {actions && (
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            )}
          </tr>
        </thead>
        <tbody>
          {jobs.map((job) => (
            <JobRow key={job.id} job={job} showOwner={showOwner} actions={actions} />
          ))}
        </tbody>
      </table>
    </div>
  );
}

function JobRow({ job, showOwner, actions }: { job: Job; showOwner?: boolean; actions?: JobActionHandlers }) {
  const active = job.status === "queued" || job.status === "running";
  const names = [...new Set(job.inputs.map((input) => input.name))];
  return (
    <tr className={`status-${outcomeOf(job)}`}>
      <th scope="row">
        <Link to={`/ui/details?id=${encodeURIComponent(job.id)}`}>{job.title}</Link>
      </th>
      <td>{capabilityNames[job.capability]}</td>
      <td className="status-text" title={job.error ?? undefined}>
        {outcomeLabel(job)}
        {active && ` ${Math.round(job.progress.percent)} %`}
      </td>
      <td className="inputs">
        {names.slice(0, SHOWN_INPUTS).join(", ")}
        {names.length > SHOWN_INPUTS && ` +${names.length - SHOWN_INPUTS} more`}
      </td>
      <td className="number">{job.sessions === null ? "—" : formatCount(job.sessions)}</td>
      <td className="number">{outputSize(job)}</td>
      <td className="nowrap">{formatCreated(job.createdAt)}</td>
      <td className="number">{formatRuntime(job)}</td>
      {showOwner && <td>{job.owner.userName}</td>}
      {actions && <td className="row-actions">{job.isOwner && <JobActions job={job} actions={actions} />}</td>}
    </tr>
  );
}

// One job as a card: capability icon, status at top right (a warning look for a suspect result), live progress, error,
// result warnings, outputs, and the owner's actions (Retry for a failed or cancelled job).
import type { Job } from "@tracemill/contracts";
import { Link } from "react-router";
import { api } from "../api/client.js";
import { CapabilityIcon, capabilityNames } from "../icons/capability-icons.js";
import { FileIcon, fileKindOf } from "../icons/file-icons.js";
import { DamageNotice } from "./damage-notice.js";
import { formatBytes } from "./file-picker.js";
import { type JobActionHandlers, JobActions } from "./job-actions.js";
import { OutcomeIcon, outcomeLabel, outcomeOf, ResultWarnings } from "./job-outcome.js";

/** `actions`: the owner's (My Jobs); without them the card is read-only (Shared Jobs). */
export function JobCard({ job, actions }: { job: Job; actions?: JobActionHandlers }) {
  const live = job.progress;
  const active = job.status === "running" || job.status === "queued";
  return (
    <article className={`job-card status-${outcomeOf(job)}`} aria-labelledby={`job-${job.id}-title`}>
      <header>
        <CapabilityIcon capability={job.capability} />
        <div className="job-heading">
          <h2 id={`job-${job.id}-title`}>{job.title}</h2>
          <small>
            {capabilityNames[job.capability]}
            {!job.isOwner && ` · by ${job.owner.userName}`}
            {job.public && " · public"}
          </small>
        </div>
        <span className="job-status" title={outcomeLabel(job)}>
          <OutcomeIcon job={job} />
        </span>
      </header>
      {job.description && <p className="job-description">{job.description}</p>}
      {active && (
        <div className="job-progress">
          <progress max={100} value={live.percent} aria-label={`Progress of ${job.title}`} />
          <span>
            {Math.round(live.percent)} % {live.stage}
          </span>
        </div>
      )}
      {job.status === "failed" && job.error && (
        <p className="job-error" role="alert">
          {job.error}
        </p>
      )}
      <DamageNotice job={job} />
      <ResultWarnings job={job} />
      {job.outputs.length > 0 && (
        <ul className="outputs" aria-label="Outputs">
          {job.outputs.map((output) => (
            <li key={output.name}>
              <a href={api.outputUrl(job.id, output.name)} download={output.name}>
                <FileIcon kind={fileKindOf(output.kind, output.name)} size={24} />
                {output.name}
              </a>{" "}
              <small>{formatBytes(output.size)}</small>
            </li>
          ))}
          {job.outputs.length > 1 && (
            <li>
              <a href={api.outputsZipUrl(job.id)} download>
                Download all (zip)
              </a>
            </li>
          )}
        </ul>
      )}
      <footer className="card-actions">
        <Link to={`/ui/details?id=${encodeURIComponent(job.id)}`}>Details</Link>
        {job.isOwner && actions && <JobActions job={job} actions={actions} />}
      </footer>
    </article>
  );
}

// How a job ended, as people read it: a succeeded job whose result is suspect (job.warnings, computed by the server
// from its summary) shows a warning look and says what and why, never the green tick.
import type { Job } from "@tracemill/contracts";
import { StatusIcon, statusLabel, WarningStatusIcon } from "../icons/capability-icons.js";

export const SUSPECT_LABEL = "Succeeded with warnings";

/** The warnings of a succeeded job; damage has its own notice (damage-notice.tsx, with the byte offset). */
export function suspectWarnings(job: Job) {
  return job.status === "succeeded" ? job.warnings : [];
}

export function outcomeLabel(job: Job): string {
  return suspectWarnings(job).length > 0 ? SUSPECT_LABEL : statusLabel(job.status);
}

/** "warning" for a suspect success, else the job's status: the card's look (`status-…` class). */
export function outcomeOf(job: Job): string {
  return suspectWarnings(job).length > 0 ? "warning" : job.status;
}

export function OutcomeIcon({ job, size }: { job: Job; size?: number }) {
  return suspectWarnings(job).length > 0 ? (
    <WarningStatusIcon size={size} label={SUSPECT_LABEL} />
  ) : (
    <StatusIcon status={job.status} size={size} />
  );
}

/** The banner of a suspect result: each warning's sentence (damage aside: its notice says it). */
export function ResultWarnings({ job }: { job: Job }) {
  const warnings = suspectWarnings(job).filter((warning) => warning.code !== "input-damaged");
  if (warnings.length === 0) return null;
  return (
    <section className="job-warning result-warnings" aria-label="Result warnings">
      <strong>Check this result before using it:</strong>
      <ul>
        {warnings.map((warning) => (
          <li key={warning.code} data-code={warning.code}>
            {warning.message}
          </li>
        ))}
      </ul>
    </section>
  );
}

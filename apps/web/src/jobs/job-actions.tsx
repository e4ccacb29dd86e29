// The owner's actions on a job, the same on its card and its table row: Edit, Retry (failed or cancelled), Cancel
// (queued or running) and Delete after a confirmation.
import type { Job } from "@tracemill/contracts";
import { useState } from "react";
import { Link } from "react-router";

export interface JobActionHandlers {
  onDelete(id: string): void;
  onCancel(id: string): void;
  onRetry(id: string): void;
}

export function JobActions({ job, actions }: { job: Job; actions: JobActionHandlers }) {
  const [confirming, setConfirming] = useState(false);
  const active = job.status === "running" || job.status === "queued";
  return (
    <>
      <Link
        className="button"
        to={`/ui/update?id=${encodeURIComponent(job.id)}&title=${encodeURIComponent(job.title)}`}
      >
        Edit
      </Link>
      {(job.status === "failed" || job.status === "cancelled") && (
        <button type="button" onClick={() => actions.onRetry(job.id)}>
          Retry
        </button>
      )}
      {active && (
        <button type="button" onClick={() => actions.onCancel(job.id)}>
          Cancel
        </button>
      )}
      {confirming ? (
        <fieldset className="confirm">
          <legend>Delete “{job.title}”?</legend>
          <button type="button" className="danger" onClick={() => actions.onDelete(job.id)}>
            Yes, delete
          </button>
          <button type="button" onClick={() => setConfirming(false)}>
            Keep
          </button>
        </fieldset>
      ) : (
        <button type="button" className="danger" onClick={() => setConfirming(true)}>
          Delete
        </button>
      )}
    </>
  );
}

// The controls above and below a job list: search (applied once typing pauses), capability and status filters, the
// Table/Cards switch (remembered in localStorage), and the pager ("1–50 of 1,234", Previous, Next).
import { capabilities, type JobOutcome, jobOutcomes } from "@tracemill/contracts/names";
import { useEffect, useRef, useState } from "react";
import { capabilityNames, statusLabel } from "../icons/capability-icons.js";
import { formatCount } from "./job-figures.js";
import { SUSPECT_LABEL } from "./job-outcome.js";
import type { ListView } from "./list-view.js";

/** How long typing must pause before the search runs: one request per word, not per key. */
export const SEARCH_DELAY_MS = 300;

const outcomeNames = (outcome: JobOutcome) => (outcome === "warning" ? SUSPECT_LABEL : statusLabel(outcome));

export function JobFilters({ view, onChange }: { view: ListView; onChange(view: ListView): void }) {
  const [text, setText] = useState(view.q);
  // The address may change the search too (back, a link): the box follows it, keeping what is being typed.
  useEffect(() => setText((typed) => (typed.trim() === view.q.trim() ? typed : view.q)), [view.q]);
  // The latest view, for the timer: polling re-renders the page, which must not restart the wait.
  const latest = useRef({ view, onChange });
  latest.current = { view, onChange };
  useEffect(() => {
    if (text.trim() === latest.current.view.q.trim()) return;
    const timer = setTimeout(
      () => latest.current.onChange({ ...latest.current.view, q: text, page: 1 }),
      SEARCH_DELAY_MS,
    );
    return () => clearTimeout(timer);
  }, [text]);
  return (
    <search className="list-filters">
      <label className="filter-field">
        Search
        <input
          type="search"
          value={text}
          placeholder="Title, input file or capability"
          onChange={(event) => setText(event.target.value)}
        />
      </label>
      <label className="filter-field">
        Capability
        <select
          value={view.capability ?? ""}
          onChange={(event) =>
            onChange({ ...view, capability: (event.target.value || undefined) as ListView["capability"], page: 1 })
          }
        >
          <option value="">All capabilities</option>
          {capabilities.map((capability) => (
            <option key={capability} value={capability}>
              {capabilityNames[capability]}
            </option>
          ))}
        </select>
      </label>
      <label className="filter-field">
        Status
        <select
          value={view.status ?? ""}
          onChange={(event) =>
            onChange({ ...view, status: (event.target.value || undefined) as ListView["status"], page: 1 })
          }
        >
          <option value="">Any status</option>
          {jobOutcomes.map((outcome) => (
            <option key={outcome} value={outcome}>
              {outcomeNames(outcome)}
            </option>
          ))}
        </select>
      </label>
    </search>
  );
}

export type JobsLook = "table" | "cards";
export const JOBS_LOOK_KEY = "tracemill.jobs-view";

/** The list's look, the same for My Jobs and Shared Jobs and kept for the next visit. */
export function useJobsLook(): [JobsLook, (look: JobsLook) => void] {
  const [look, setLook] = useState<JobsLook>(() =>
    localStorage.getItem(JOBS_LOOK_KEY) === "cards" ? "cards" : "table",
  );
  useEffect(() => localStorage.setItem(JOBS_LOOK_KEY, look), [look]);
  return [look, setLook];
}

export function LookSwitch({ look, onChange }: { look: JobsLook; onChange(look: JobsLook): void }) {
  return (
    <fieldset className="look-switch">
      <legend className="visually-hidden">View</legend>
      {(["table", "cards"] as const).map((each) => (
        <button key={each} type="button" aria-pressed={look === each} onClick={() => onChange(each)}>
          {each === "table" ? "Table" : "Cards"}
        </button>
      ))}
    </fieldset>
  );
}

export function Pager(props: { offset: number; shown: number; total: number; onPage(step: -1 | 1): void }) {
  const { offset, shown, total, onPage } = props;
  return (
    <nav className="pager" aria-label="Pages">
      <span role="status">
        {shown === 0
          ? `0 of ${formatCount(total)}`
          : `${formatCount(offset + 1)}–${formatCount(offset + shown)} of ${formatCount(total)}`}
      </span>
      <button type="button" disabled={offset === 0} onClick={() => onPage(-1)}>
        Previous
      </button>
      <button type="button" disabled={offset + shown >= total} onClick={() => onPage(1)}>
        Next
      </button>
    </nav>
  );
}

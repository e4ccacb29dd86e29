// My Jobs (with Edit, Delete, Cancel and Retry) and Shared Jobs (everyone's public jobs, read-only, signed out too):
// one page at a time, searched, filtered and sorted by the server as the address says, as a table or as cards.
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Job, JobListQuery, JobPage } from "@tracemill/contracts";
import { type ReactNode, useCallback, useMemo } from "react";
import { Link, useSearchParams } from "react-router";
import { api, messagesOf } from "../api/client.js";
import { ErrorBanners } from "../forms/fields.js";
import { usePageTitle } from "../layout/page-title.js";
import type { JobActionHandlers } from "./job-actions.js";
import { JobCard } from "./job-card.js";
import { JobFilters, LookSwitch, Pager, useJobsLook } from "./job-list-controls.js";
import { JobTable } from "./job-table.js";
import { type ListView, listQuery, listViewSearch, readListView, sortedBy } from "./list-view.js";

const POLL_MS = 2000;
const anyActive = (jobs: Job[] | undefined) => jobs?.some((j) => j.status === "queued" || j.status === "running");

/** The view in the address; a change replaces the entry, so typing a search leaves no trail of history entries. */
function useListView(): [ListView, (view: ListView) => void] {
  const [search, setSearch] = useSearchParams();
  const view = useMemo(() => readListView(search), [search]);
  const change = useCallback((next: ListView) => setSearch(listViewSearch(next), { replace: true }), [setSearch]);
  return [view, change];
}

const pageOf = { mine: api.myJobs, public: api.publicJobs };

/** A list page's query, one definition for the page and for the start's prefetch (main.tsx). */
export const jobListQuery = (scope: "mine" | "public", query: JobListQuery) => ({
  queryKey: ["jobs", scope, query],
  queryFn: () => pageOf[scope](query),
});

/** The list an address shows, if it is one of the two list pages. */
export function listAt(pathname: string, search: string) {
  const scope = pathname === "/ui/dataSets" ? "mine" : pathname === "/ui/public/dataSets" ? "public" : undefined;
  return scope && jobListQuery(scope, listQuery(readListView(new URLSearchParams(search))));
}

interface JobListProps {
  scope: "mine" | "public";
  label: string;
  actions?: JobActionHandlers;
  /** What an empty list says when no search or filter narrows it. */
  empty: ReactNode;
  errors?: unknown[];
}

function JobList({ scope, label, actions, empty, errors = [] }: JobListProps) {
  const [view, setView] = useListView();
  const [look, setLook] = useJobsLook();
  const query = listQuery(view);
  const jobs = useQuery({
    ...jobListQuery(scope, query),
    // The rows stay while the next page, sort or search loads, instead of flashing "Loading…".
    placeholderData: keepPreviousData,
    refetchInterval: (current) => (anyActive(current.state.data?.jobs) ? POLL_MS : false),
  });
  const page = jobs.data;
  const narrowed = Boolean(view.q.trim() || view.capability || view.status);
  return (
    <>
      <ErrorBanners messages={[...errors, jobs.error].flatMap((e) => (e ? messagesOf(e) : []))} />
      <div className="list-controls">
        <JobFilters view={view} onChange={setView} />
        <LookSwitch look={look} onChange={setLook} />
      </div>
      {jobs.isPending && <p aria-busy="true">Loading…</p>}
      {page?.total === 0 && (narrowed ? <p>No jobs match the search and filters.</p> : empty)}
      {page &&
        page.jobs.length > 0 &&
        (look === "table" ? (
          <JobTable
            label={label}
            jobs={page.jobs}
            view={view}
            onSort={(sort) => setView(sortedBy(view, sort))}
            showOwner={scope === "public"}
            actions={actions}
          />
        ) : (
          <div className="job-grid">
            {page.jobs.map((job) => (
              <JobCard key={job.id} job={job} actions={actions} />
            ))}
          </div>
        ))}
      {page && page.total > 0 && (
        <Pager
          offset={page.offset}
          shown={page.jobs.length}
          total={page.total}
          onPage={(step) => setView({ ...view, page: Math.max(1, view.page + step) })}
        />
      )}
    </>
  );
}

export function MyJobsPage() {
  usePageTitle("My Jobs");
  const queryClient = useQueryClient();
  const refresh = () => queryClient.invalidateQueries({ queryKey: ["jobs"] });
  const remove = useMutation({
    mutationFn: api.deleteJob,
    onSuccess: (_, id) => {
      // Gone at once from the page shown; the refresh then brings the next job up into its place.
      queryClient.setQueriesData<JobPage>({ queryKey: ["jobs", "mine"] }, (page) =>
        page?.jobs ? { ...page, jobs: page.jobs.filter((j) => j.id !== id), total: page.total - 1 } : page,
      );
      return refresh();
    },
  });
  const cancel = useMutation({ mutationFn: api.cancelJob, onSuccess: refresh });
  const retry = useMutation({ mutationFn: api.retryJob, onSuccess: refresh });
  return (
    <section>
      <h1>My Jobs</h1>
      <JobList
        scope="mine"
        label="My jobs"
        actions={{
          onDelete: (id) => remove.mutate(id),
          onCancel: (id) => cancel.mutate(id),
          onRetry: (id) => retry.mutate(id),
        }}
        errors={[remove.error, cancel.error, retry.error]}
        empty={
          <p>
            No jobs yet. Start one from a capability, for example <Link to="/ui/extract">Feature Extraction</Link>.
          </p>
        }
      />
    </section>
  );
}

export function SharedJobsPage() {
  usePageTitle("Shared Jobs");
  return (
    <section>
      <h1>Shared Jobs</h1>
      <p className="lead">Jobs that their owners made public. They are read-only here.</p>
      <JobList scope="public" label="Shared jobs" empty={<p>No shared jobs yet.</p>} />
    </section>
  );
}

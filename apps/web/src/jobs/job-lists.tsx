// My Jobs (with Edit, Delete, Cancel and Retry) and Shared Jobs (everyone's public jobs, read-only, signed out too).

import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Job } from "@tracemill/contracts";
import { Link } from "react-router";
import { api, messagesOf } from "../api/client.js";
import { ErrorBanners } from "../forms/fields.js";
import { usePageTitle } from "../layout/page-title.js";
import { JobCard } from "./job-card.js";

const POLL_MS = 2000;
const anyActive = (jobs: Job[] | undefined) => jobs?.some((j) => j.status === "queued" || j.status === "running");

export function MyJobsPage() {
  usePageTitle("My Jobs");
  const queryClient = useQueryClient();
  const jobs = useQuery({
    queryKey: ["jobs", "mine"],
    queryFn: api.myJobs,
    refetchInterval: (query) => (anyActive(query.state.data) ? POLL_MS : false),
  });
  const remove = useMutation({
    mutationFn: api.deleteJob,
    onSuccess: (_, id) => queryClient.setQueryData<Job[]>(["jobs", "mine"], (list) => list?.filter((j) => j.id !== id)),
  });
  const cancel = useMutation({
    mutationFn: api.cancelJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["jobs"] }),
  });
  const retry = useMutation({
    mutationFn: api.retryJob,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ["jobs"] }),
  });
  return (
    <section>
      <h1>My Jobs</h1>
      <ErrorBanners
        messages={[remove.error, cancel.error, retry.error, jobs.error].flatMap((e) => (e ? messagesOf(e) : []))}
      />
      {jobs.isPending && <p aria-busy="true">Loading…</p>}
      {jobs.data?.length === 0 && (
        <p>
          No jobs yet. Start one from a capability, for example <Link to="/ui/extract">Feature Extraction</Link>.
        </p>
      )}
      <div className="job-grid">
        {jobs.data?.map((job) => (
          <JobCard
            key={job.id}
            job={job}
            onDelete={(id) => remove.mutate(id)}
            onCancel={(id) => cancel.mutate(id)}
            onRetry={(id) => retry.mutate(id)}
          />
        ))}
      </div>
    </section>
  );
}

export function SharedJobsPage() {
  usePageTitle("Shared Jobs");
  const jobs = useQuery({
    queryKey: ["jobs", "public"],
    queryFn: api.publicJobs,
    refetchInterval: (query) => (anyActive(query.state.data) ? POLL_MS : false),
  });
  return (
    <section>
      <h1>Shared Jobs</h1>
      <p className="lead">Jobs that their owners made public. They are read-only here.</p>
      <ErrorBanners messages={jobs.error ? messagesOf(jobs.error) : []} />
      {jobs.isPending && <p aria-busy="true">Loading…</p>}
      {jobs.data?.length === 0 && <p>No shared jobs yet.</p>}
      <div className="job-grid">
        {jobs.data?.map((job) => (
          <JobCard key={job.id} job={job} />
        ))}
      </div>
    </section>
  );
}

// A capability's creation route: a new job, or with `?from=<job id>` that job run again with changes — its wizard
// opened on a draft made from it (draft-from-job.ts).
import { useQuery } from "@tanstack/react-query";
import type { Capability } from "@tracemill/contracts";
import { useSearchParams } from "react-router";
import { api, messagesOf } from "../api/client.js";
import { ErrorBanners } from "../forms/fields.js";
import { CreateJobPage } from "./create-job-page.js";
import { draftFromJob } from "./draft-from-job.js";

export function CreateJobRoute({ capability }: { capability: Capability }) {
  const [search] = useSearchParams();
  const from = search.get("from");
  return from ? (
    <RunAgain key={from} capability={capability} jobId={from} />
  ) : (
    <CreateJobPage capability={capability} />
  );
}

function RunAgain({ capability, jobId }: { capability: Capability; jobId: string }) {
  const job = useQuery({ queryKey: ["job", jobId], queryFn: () => api.job(jobId) });
  if (job.error) return <ErrorBanners messages={messagesOf(job.error)} />;
  if (!job.data) return <p aria-busy="true">Loading…</p>;
  // A job of another capability (an address written by hand) starts this wizard empty.
  const again = job.data.capability === capability ? { job: job.data, ...draftFromJob(job.data) } : undefined;
  return <CreateJobPage capability={capability} again={again} />;
}

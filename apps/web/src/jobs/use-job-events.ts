// Live state of a running job from the server's event stream ("job" events carry the whole job), on its details page.
// The lists poll instead, one request a page: a stream per running row would take the browser's six connections to
// the server (HTTP/1.1) with six rows, and every other request of the app would wait behind them.

import { type QueryClient, useQueryClient } from "@tanstack/react-query";
import type { Job, JobPage } from "@tracemill/contracts";
import { useEffect } from "react";
import { api } from "../api/client.js";

/** Reads one "job" event; undefined when it is not a job. */
export function parseJobEvent(data: string): Job | undefined {
  try {
    const body = JSON.parse(data) as Partial<Job>;
    return typeof body.id === "string" && typeof body.status === "string" && body.progress ? (body as Job) : undefined;
  } catch {
    return undefined;
  }
}

/** Puts a fresher copy of a job into every cached list (whole lists and pages) and into its own entry. */
export function storeJob(queryClient: QueryClient, job: Job): void {
  const replace = (list: Job[]) => list.map((j) => (j.id === job.id ? job : j));
  queryClient.setQueriesData<Job[] | JobPage>({ queryKey: ["jobs"] }, (cached) => {
    if (cached === undefined) return cached;
    return Array.isArray(cached) ? replace(cached) : { ...cached, jobs: replace(cached.jobs) };
  });
  queryClient.setQueryData<Job>(["job", job.id], job);
}

/** Follows `job` (none while it loads) while it is queued or running. */
export function useJobEvents(job: Job | undefined): void {
  const queryClient = useQueryClient();
  const active = job?.status === "running" || job?.status === "queued";
  const id = job?.id;
  useEffect(() => {
    if (!active || id === undefined || typeof EventSource === "undefined") return;
    const source = new EventSource(api.eventsUrl(id), { withCredentials: true });
    source.addEventListener("job", (event: MessageEvent<string>) => {
      const fresh = parseJobEvent(event.data);
      if (fresh) storeJob(queryClient, fresh);
      if (fresh && fresh.status !== "running" && fresh.status !== "queued") source.close();
    });
    source.addEventListener("deleted", () => {
      source.close();
      void queryClient.invalidateQueries({ queryKey: ["jobs"] });
    });
    source.onerror = () => source.close();
    return () => source.close();
  }, [active, id, queryClient]);
}

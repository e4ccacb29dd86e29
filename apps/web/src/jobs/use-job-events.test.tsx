// Live job updates over server-sent events and how they refresh the cached job lists.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render } from "@testing-library/react";
import type { Job, JobPage } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { jobPage, makeJob } from "../test-utils.js";
import { parseJobEvent, storeJob, useJobEvents } from "./use-job-events.js";

/** Stands in for the browser's EventSource: records listeners so the test can send events. */
class FakeEventSource {
  static last: FakeEventSource | undefined;
  listeners = new Map<string, (event: MessageEvent<string>) => void>();
  closed = false;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
  }
  addEventListener(type: string, listener: (event: MessageEvent<string>) => void) {
    this.listeners.set(type, listener);
  }
  send(type: string, data: unknown) {
    this.listeners.get(type)?.({ data: JSON.stringify(data) } as MessageEvent<string>);
  }
  close() {
    this.closed = true;
  }
}

afterEach(() => vi.unstubAllGlobals());

describe("job events", () => {
  it("parses job events and ignores anything else", () => {
    expect(parseJobEvent(JSON.stringify(makeJob({ id: "x" })))?.id).toBe("x");
    expect(parseJobEvent("{}")).toBeUndefined();
    expect(parseJobEvent("not json")).toBeUndefined();
  });

  it("puts a fresher job into every cached list, whole or a page, and its own entry", () => {
    const client = new QueryClient();
    client.setQueryData(["jobs", "mine", "all"], [makeJob({ id: "a" }), makeJob({ id: "b", title: "old" })]);
    const pageKey = ["jobs", "public", { sort: "title" }];
    client.setQueryData(pageKey, jobPage([makeJob({ id: "b", title: "old" }), makeJob({ id: "c" })], "", 7));
    storeJob(client, makeJob({ id: "b", title: "new" }));
    expect(client.getQueryData<Job[]>(["jobs", "mine", "all"])?.map((j) => j.title)).toEqual(["A job", "new"]);
    const page = client.getQueryData<JobPage>(pageKey);
    expect([page?.jobs.map((j) => j.title), page?.total]).toEqual([["new", "A job"], 7]);
    expect(client.getQueryData<Job>(["job", "b"])?.title).toBe("new");
  });

  it("follows a running job's stream until it finishes", () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    const client = new QueryClient();
    const running = makeJob({ id: "r", status: "running", progress: { percent: 10, stage: "reading" } });
    client.setQueryData(["jobs", "mine"], [running]);
    function Probe() {
      useJobEvents(running);
      return null;
    }
    render(
      <QueryClientProvider client={client}>
        <Probe />
      </QueryClientProvider>,
    );
    const source = FakeEventSource.last!;
    expect(source.url).toBe("/api/jobs/r/events");
    act(() => source.send("job", { ...running, progress: { percent: 55, stage: "sessions" } }));
    expect(client.getQueryData<Job[]>(["jobs", "mine"])?.[0].progress.percent).toBe(55);
    expect(source.closed).toBe(false);
    act(() => source.send("job", { ...running, status: "succeeded", progress: { percent: 100, stage: "done" } }));
    expect(client.getQueryData<Job[]>(["jobs", "mine"])?.[0].status).toBe("succeeded");
    expect(source.closed).toBe(true);
  });
});

// Live job updates over server-sent events and how they refresh the cached job lists.
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import type { Job, JobPage } from "@tracemill/contracts";
import { afterEach, describe, expect, it, vi } from "vitest";
import { alice, fakeServer, jobPage, makeJob, renderApp } from "../test-utils.js";
import { parseJobEvent, storeJob, useJobEvents } from "./use-job-events.js";

/** Stands in for the browser's EventSource: records listeners so the test can send events. */
class FakeEventSource {
  static last: FakeEventSource | undefined;
  static opened: string[] = [];
  listeners = new Map<string, (event: MessageEvent<string>) => void>();
  closed = false;
  onerror: (() => void) | null = null;
  constructor(readonly url: string) {
    FakeEventSource.last = this;
    FakeEventSource.opened.push(url);
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

  it("leaves a list of running jobs to its polling and follows one job's stream on its details page", async () => {
    vi.stubGlobal("EventSource", FakeEventSource);
    FakeEventSource.opened = [];
    const running = Array.from({ length: 10 }, (_, i) =>
      makeJob({ id: `r${i}`, title: `Run ${i}`, status: "running", progress: { percent: 10, stage: "reading" } }),
    );
    fakeServer({
      "GET /api/auth/session": () => ({ body: alice }),
      "GET /api/jobs": (_, url) => ({ body: jobPage(running, url) }),
      "GET /api/jobs/r3": () => ({ body: running[3] }),
    });
    const view = renderApp("/ui/dataSets");
    expect(await screen.findByRole("link", { name: "Run 9" })).toBeInTheDocument();
    // Ten streams would hold every one of the browser's six connections to the server.
    expect(FakeEventSource.opened).toEqual([]);
    view.unmount();
    renderApp("/ui/details?id=r3");
    expect(await screen.findByRole("heading", { name: /Run 3/ })).toBeInTheDocument();
    expect(FakeEventSource.opened).toEqual(["/api/jobs/r3/events"]);
  });
});

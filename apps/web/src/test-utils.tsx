// Test helpers: a fake server answering fetch by method and path, and the whole app rendered at a route.

import { render } from "@testing-library/react";
import type { ColumnSummary, Job, JobPage, UploadedFile } from "@tracemill/contracts";
import { MemoryRouter, useLocation } from "react-router";
import { vi } from "vitest";
import { App } from "./app.js";

export type Handler = (body: unknown, url: string) => { status?: number; body?: unknown; text?: string } | undefined;

/** Replaces fetch; unknown routes answer 404 with a message. Returns the recorded calls. */
export function fakeServer(routes: Record<string, Handler>) {
  const calls: { method: string; path: string; body: unknown }[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? "GET";
    const path = url.split("?")[0];
    const body = typeof init?.body === "string" ? JSON.parse(init.body) : undefined;
    calls.push({ method, path, body });
    const handler = routes[`${method} ${path}`];
    const answer = handler ? (handler(body, url) ?? {}) : { status: 404, body: { messages: ["Not found"] } };
    const status = answer.status ?? 200;
    const payload = answer.text ?? (answer.body === undefined ? null : JSON.stringify(answer.body));
    return new Response(payload, {
      status,
      headers: { "Content-Type": "application/json" },
    });
  });
  vi.stubGlobal("fetch", fetchMock);
  return calls;
}

export const alice = { userName: "alice", email: "alice@example.org" };

/** The current location, rendered so tests can read where the app navigated. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{`${location.pathname}${location.search}`}</output>;
}

export function renderApp(path: string) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <App />
      <LocationProbe />
    </MemoryRouter>,
  );
}

/** A job as the server answers it, with the given fields changed. */
export function makeJob(overrides: Partial<Job>): Job {
  const id = overrides.id ?? "j1";
  return {
    id,
    _id: id,
    title: "A job",
    description: "",
    public: false,
    capability: "extract",
    params: { idleTimeout: 120 },
    status: "succeeded",
    progress: { percent: 100, stage: "done" },
    error: null,
    owner: { userName: "alice" },
    isOwner: true,
    createdAt: "2026-01-01T10:00:00Z",
    startedAt: "2026-01-01T10:00:01Z",
    finishedAt: "2026-01-01T10:00:03Z",
    inputs: [],
    outputs: [],
    summary: null,
    sessions: null,
    warnings: [],
    ...overrides,
  };
}

/** A job list as the server answers it: these jobs as one whole page (the offset and limit the request gave). */
export function jobPage(jobs: Job[], url = "", total = jobs.length): JobPage {
  const query = new URL(url, "http://localhost").searchParams;
  const offset = Number(query.get("offset") ?? 0);
  const limit = Number(query.get("limit") ?? 50);
  return { jobs, total, offset, limit, nextOffset: offset + jobs.length < total ? offset + jobs.length : null };
}

/** The server's look-up by digest when it holds none of the files asked (POST /api/files/lookup): all to upload. */
export const noneStored: Handler = (body) => ({
  body: { files: (body as { files: unknown[] }).files.map(() => null) },
});

/**
 * An empty pcap (its global header); `tag` goes into the header's sigfigs field, which readers ignore, so that each tag
 * is other bytes with another SHA-256: the wizard uploads identical bytes once.
 */
export function pcapBytes(tag = 0): Uint8Array {
  const header = new Uint8Array([
    0xd4, 0xc3, 0xb2, 0xa1, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff, 0, 0, 1, 0, 0, 0,
  ]);
  new DataView(header.buffer).setUint32(12, tag, true);
  return header;
}

/** What the server answers for an upload of `file` (a pcap), under the id the test gives it. */
export function uploadedAs(file: File, id: string): UploadedFile {
  return {
    id,
    name: file.name,
    size: file.size,
    sha256: "0".repeat(64),
    format: "pcap",
    compression: null,
    createdAt: "",
  };
}

/** A column as the explorer's server answers it (GET …/columns/:column), with the given fields changed. */
export function columnAnswer(overrides: Partial<ColumnSummary>): ColumnSummary {
  return {
    output: "features.csv",
    column: "x",
    type: "numeric",
    rows: 0,
    count: 0,
    missing: 0,
    invalid: 0,
    firstInvalid: null,
    distinct: 0,
    stats: null,
    histogram: null,
    top: null,
    otherValues: 0,
    split: null,
    ...overrides,
  };
}

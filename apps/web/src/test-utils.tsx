// Test helpers: a fake server answering fetch by method and path (alone, or set up as a job's details page or a job
// wizard asks it), the whole app rendered at a route, and the server's answers the tests build on.

import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type {
  ColumnSummary,
  FeatureSetInfo,
  Job,
  JobPage,
  SessionKeyView,
  TableColumns,
  UploadedFile,
} from "@tracemill/contracts";
import { MemoryRouter, useLocation } from "react-router";
import { afterEach, beforeEach, vi } from "vitest";
import { api } from "./api/client.js";
import { App } from "./app.js";
import { loadAllScreens } from "./lazy-screens.js";

// The app loads its screens on first use; here they load once per test file, before any test's time limit runs.
await loadAllScreens();

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

/** The query of an address the app asked (a path, relative to the page). */
export const searchOf = (url: string) => new URL(url, "http://localhost").searchParams;

/** The server behind `job`'s details page, alice signed in: the job, and `routes` for what the page asks next. */
export function detailsServer(job: Job, routes: Record<string, Handler> = {}) {
  return fakeServer({
    "GET /api/auth/session": () => ({ body: alice }),
    [`GET /api/jobs/${job.id}`]: () => ({ body: job }),
    ...routes,
  });
}

/** One feature set, as most wizard tests need. */
const tracemillSet: FeatureSetInfo = {
  name: "tracemill",
  description: "Tracemill's features",
  columns: [],
  defaults: {},
};

/**
 * The server behind a job wizard, alice signed in: her earlier jobs (`jobs`, none by default) whose outputs can be
 * chosen, the feature sets, a look-up by digest holding none of the files, and a create answering 201 with `createdId`.
 * `routes` add to these or replace them.
 */
export function wizardServer(
  options: { jobs?: Job[]; featureSets?: FeatureSetInfo[]; createdId?: string; routes?: Record<string, Handler> } = {},
) {
  return fakeServer({
    "GET /api/auth/session": () => ({ body: alice }),
    "GET /api/jobs": (_, url) => ({ body: jobPage(options.jobs ?? [], url) }),
    "GET /api/feature-sets": () => ({ body: options.featureSets ?? [tracemillSet] }),
    "POST /api/files/lookup": noneStored,
    "POST /api/jobs": (body) => ({ status: 201, body: { ...(body as object), id: options.createdId ?? "job-1" } }),
    ...options.routes,
  });
}

/** The body of the first job the wizard created (POST /api/jobs), if any. */
export const createdJob = (calls: ReturnType<typeof fakeServer>) =>
  calls.find((c) => c.method === "POST" && c.path === "/api/jobs")?.body;

/** Uploads answer file-1, file-2, … in order, each reported half then wholly sent. Restore with vi.restoreAllMocks. */
export function mockUploads() {
  let uploads = 0;
  return vi.spyOn(api, "upload").mockImplementation(async (file, onProgress) => {
    onProgress(0.5);
    onProgress(1);
    return uploadedAs(file, `file-${++uploads}`);
  });
}

/** For each test of the calling file: uploads mocked as mockUploads does, then every mock and stubbed global undone. */
export function mockUploadsEachTest() {
  beforeEach(() => {
    mockUploads();
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllGlobals();
  });
}

/** Picks a file of these bytes in the wizard's field `label`, and waits for the one place that names it. */
export async function choose(label: string, name: string, content: Uint8Array) {
  await userEvent.upload(screen.getByLabelText(`${label}: choose a file`), new File([content as BlobPart], name));
  await screen.findByText(new RegExp(name.replace(".", "\\.")));
}

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
  const query = searchOf(url);
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

/** A table's columns as the explorer's server answers them (GET …/columns), with the given fields changed. */
export function columnsAnswer(overrides: Partial<TableColumns>): TableColumns {
  return { output: "features.csv", format: "csv", rows: 0, columns: [], splitBy: [], problems: [], ...overrides };
}

/** The session of row `n` as the server names one: UDP 10.0.0.n:(1000 + n) → 192.0.2.1:53, begun at 1 700 000 000 + n s. */
export function udpSession(n: number): SessionKeyView {
  return {
    protocol: 17,
    start: String(1_700_000_000 + n),
    srcIP: `10.0.0.${n}`,
    srcPort: 1000 + n,
    dstIP: "192.0.2.1",
    dstPort: 53,
  };
}

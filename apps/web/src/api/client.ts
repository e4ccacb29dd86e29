// Every call the web app makes to the server, in one place: paths, credentials, error shapes.
import type {
  ColumnQuery,
  ColumnSummary,
  CreateJobRequest,
  FeatureSetInfo,
  FileDigest,
  FileLookupResponse,
  GalleryPage,
  GalleryQuery,
  IptSeriesAnswer,
  IptSessionPage,
  IptSessionsQuery,
  Job,
  JobLineage,
  JobListQuery,
  JobPage,
  Library,
  LibraryListing,
  ListedUpload,
  Ruleset,
  SessionUser,
  SigninRequest,
  SignupRequest,
  TableColumns,
  UpdateJobRequest,
  UploadedFile,
} from "@tracemill/contracts";
import { MAX_JOB_PAGE_SIZE } from "@tracemill/contracts/names";

/** A failed call: the server's readable messages (possibly none) and the HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly messages: string[],
  ) {
    super(messages.join("; ") || `HTTP ${status}`);
  }
}

async function readMessages(response: Response): Promise<string[]> {
  try {
    const body = (await response.json()) as { messages?: unknown };
    return Array.isArray(body?.messages) ? body.messages.map(String) : [];
  } catch {
    return [];
  }
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(path, {
    method,
    credentials: "include",
    headers: body === undefined ? undefined : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new ApiError(response.status, await readMessages(response));
  if (response.status === 204) return undefined as T;
  const text = await response.text();
  return (text ? JSON.parse(text) : undefined) as T;
}

/** `?name=value&…` of the parameters given (none: ""). */
function queryString(query: JobListQuery | Record<string, unknown>): string {
  const pairs = Object.entries(query).filter(([, value]) => value !== undefined && value !== "");
  return pairs.length === 0 ? "" : `?${new URLSearchParams(pairs.map(([k, v]) => [k, String(v)])).toString()}`;
}

/** Sign-in, sign-up and the session check may answer without a userName; callers decide what that means. */
export type MaybeUser = Partial<SessionUser> | undefined;

export const api = {
  register: (request: SignupRequest) => call<MaybeUser>("POST", "/api/auth/register", request),
  login: (request: SigninRequest) => call<MaybeUser>("POST", "/api/auth/login", request),
  session: () => call<MaybeUser>("GET", "/api/auth/session"),
  logout: () => call<unknown>("POST", "/api/auth/logout"),

  /** My uploads, newest first, each with the jobs that read it. */
  files: () => call<ListedUpload[]>("GET", "/api/files"),
  /** For each digest, my upload with those bytes or null: a file the server holds needs no upload. */
  lookupFiles: (files: FileDigest[]) => call<FileLookupResponse>("POST", "/api/files/lookup", { files }),
  /** Deletes an upload of mine that no job reads. */
  deleteFile: (id: string) => call<unknown>("DELETE", `/api/files/${encodeURIComponent(id)}`),
  /** One page of my jobs as the query says (search, filters, sort, page: contracts' job-list.ts). */
  myJobs: (query: JobListQuery = {}) => call<JobPage>("GET", `/api/jobs${queryString(query)}`),
  publicJobs: (query: JobListQuery = {}) => call<JobPage>("GET", `/api/jobs/public${queryString(query)}`),
  /** Every job of mine, newest first, page after page (the wizards' earlier outputs, the profile's counts). */
  async allMyJobs(): Promise<Job[]> {
    const jobs: Job[] = [];
    for (let offset: number | null = 0; offset !== null; ) {
      const page = await api.myJobs({ limit: MAX_JOB_PAGE_SIZE, offset });
      jobs.push(...page.jobs);
      offset = page.nextOffset;
    }
    return jobs;
  },
  job: (id: string) => call<Job>("GET", `/api/jobs/${encodeURIComponent(id)}`),
  /** The jobs a job came from and the jobs that used its outputs, those I may read. */
  lineage: (id: string) => call<JobLineage>("GET", `/api/jobs/${encodeURIComponent(id)}/lineage`),
  createJob: (request: CreateJobRequest) => call<Job>("POST", "/api/jobs", request),
  updateJob: (id: string, request: UpdateJobRequest) =>
    call<Job>("PATCH", `/api/jobs/${encodeURIComponent(id)}`, request),
  deleteJob: (id: string) => call<unknown>("DELETE", `/api/jobs/${encodeURIComponent(id)}`),
  cancelJob: (id: string) => call<Job>("POST", `/api/jobs/${encodeURIComponent(id)}/cancel`),
  /** A failed or cancelled job queued again as a new job; answers the new job. */
  retryJob: (id: string) => call<Job>("POST", `/api/jobs/${encodeURIComponent(id)}/retry`),
  rulesets: () => call<Ruleset[]>("GET", "/api/rulesets"),
  featureSets: () => call<FeatureSetInfo[]>("GET", "/api/feature-sets"),
  libraries: () => call<Library[]>("GET", "/api/libraries"),
  /** One folder of a capture library ("" for its top). */
  libraryFolder: (name: string, folder: string) =>
    call<LibraryListing>(
      "GET",
      `/api/libraries/${encodeURIComponent(name)}/entries?path=${encodeURIComponent(folder)}`,
    ),

  outputUrl: (id: string, name: string) => `/api/jobs/${encodeURIComponent(id)}/outputs/${encodeURIComponent(name)}`,
  /** A table output's columns and rows (the feature explorer; the server reads the whole file once). */
  tableColumns: (id: string, name: string) => call<TableColumns>("GET", `${api.outputUrl(id, name)}/columns`),
  /** One column of a table output over every row: counts, statistics, a histogram or its top values. */
  columnSummary: (id: string, name: string, column: string, query: ColumnQuery = {}) =>
    call<ColumnSummary>(
      "GET",
      `${api.outputUrl(id, name)}/columns/${encodeURIComponent(column)}${queryString(query as Record<string, unknown>)}`,
    ),
  /** A page of an images zip's images, each pixel row with its session (the server reads the zip, not the browser). */
  galleryPage: (id: string, name: string, query: GalleryQuery = {}) =>
    call<GalleryPage>("GET", `${api.outputUrl(id, name)}/images${queryString(query)}`),
  /** The PNG of an images zip's image by its number (images/image-000001.png is 1). */
  imageUrl: (id: string, name: string, number: number) => `${api.outputUrl(id, name)}/images/${number}`,
  /** Sessions of an IPT output, the first ones or those matching a search, from a data row on. */
  iptSessions: (id: string, name: string, query: IptSessionsQuery = {}) =>
    call<IptSessionPage>("GET", `${api.outputUrl(id, name)}/sessions${queryString(query)}`),
  /** The inter-packet times of an IPT output's sessions, by their data rows. */
  iptSeries: (id: string, name: string, rows: number[]) =>
    call<IptSeriesAnswer>("GET", `${api.outputUrl(id, name)}/series?rows=${rows.join(",")}`),
  outputsZipUrl: (id: string) => `/api/jobs/${encodeURIComponent(id)}/outputs.zip`,
  eventsUrl: (id: string) => `/api/jobs/${encodeURIComponent(id)}/events`,
  codeUrl: "/code",
  sampleDatasetsUrl: "/sampledatasets",

  /** Fetches the start of an output (CSV, TXT) for previews; the range keeps big files cheap. */
  async outputText(id: string, name: string, maxBytes = 2_000_000): Promise<string> {
    const response = await fetch(api.outputUrl(id, name), {
      credentials: "include",
      headers: { Range: `bytes=0-${maxBytes - 1}` },
    });
    if (!response.ok) throw new ApiError(response.status, await readMessages(response));
    return response.text();
  },

  /** Uploads one file as multipart field "file", reporting progress from the XHR upload events. */
  upload(file: File, onProgress: (fraction: number) => void): Promise<UploadedFile> {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      xhr.open("POST", "/api/files");
      xhr.withCredentials = true;
      xhr.upload.onprogress = (event) => {
        if (event.lengthComputable) onProgress(event.loaded / event.total);
      };
      xhr.onload = () => {
        let body: unknown;
        try {
          body = JSON.parse(xhr.responseText);
        } catch {
          body = undefined;
        }
        if (xhr.status >= 200 && xhr.status < 300) {
          onProgress(1);
          resolve(body as UploadedFile);
        } else {
          const messages = (body as { messages?: unknown })?.messages;
          reject(new ApiError(xhr.status, Array.isArray(messages) ? messages.map(String) : []));
        }
      };
      xhr.onerror = () => reject(new ApiError(0, ["The upload failed: the server could not be reached"]));
      const form = new FormData();
      form.append("file", file, file.name);
      xhr.send(form);
    });
  },
};

/** Messages of any thrown value, for banners. */
export function messagesOf(error: unknown): string[] {
  if (error instanceof ApiError) return error.messages;
  if (error instanceof Error) return [error.message];
  return [];
}

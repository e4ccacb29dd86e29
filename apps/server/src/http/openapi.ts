// The OpenAPI document of the JSON API, generated from the contracts' zod schemas (served at /api/openapi.json).
import {
  columnSummary,
  createJobRequest,
  errorResponse,
  fileLookupRequest,
  fileLookupResponse,
  galleryPage,
  health,
  iptSeriesAnswer,
  iptSessionPage,
  job,
  jobLineage,
  jobPage,
  legacyCapabilityRequest,
  legacyDownloadRequest,
  legacyIdRequest,
  legacyUpdateRequest,
  library,
  libraryListing,
  listedUpload,
  ruleset,
  sessionResponse,
  sessionUser,
  signinRequest,
  signupRequest,
  tableColumns,
  updateJobRequest,
  uploadedFile,
} from "@tracemill/contracts";
import { TRACEMILL_VERSION } from "@tracemill/engine";
import { type ZodType, z } from "zod";

interface Operation {
  summary: string;
  /** Query parameters: name and what it means. */
  query?: Record<string, string>;
  body?: ZodType | "multipart";
  response?: ZodType | "binary" | "event-stream";
  status?: number;
}

const jobList = z.array(job);
/** The job lists' query (contracts, job-list.ts; docs/api.md, "Job lists"). */
const jobListParams = {
  q: "words matched, case aside, in the title, an input's name, or the capability's id or name",
  capability: "only jobs of this capability",
  status: "only jobs with this outcome: queued, running, succeeded (without warnings), warning, failed, cancelled",
  sort: "title, capability, status, sessions, size, created (default) or runtime",
  order: "asc or desc (default: asc for title, capability and status, else desc)",
  limit: "jobs per page, 1 to 200 (default 50)",
  offset: "jobs skipped before the page (default 0)",
};
const idParam = [{ name: "id", in: "path", required: true, schema: { type: "string" } }];

const operations: Record<string, Record<string, Operation>> = {
  "/api/health": { get: { summary: "Version and liveness", response: health } },
  "/api/openapi.json": { get: { summary: "This document" } },
  "/api/auth/register": {
    post: { summary: "Create an account", body: signupRequest, response: sessionUser, status: 201 },
  },
  "/api/auth/login": {
    post: { summary: "Sign in; sets the session cookie", body: signinRequest, response: sessionUser },
  },
  "/api/auth/session": { get: { summary: "Who is signed in ({} when nobody)", response: sessionResponse } },
  "/api/auth/logout": { post: { summary: "Sign out; ends the session" } },
  "/api/files": {
    get: { summary: "My uploads, newest first, each with the jobs that read it", response: z.array(listedUpload) },
    post: {
      summary:
        'Upload one file (multipart field "file"), streamed; bytes I uploaded before answer 200 with that upload',
      body: "multipart",
      response: uploadedFile,
      status: 201,
    },
  },
  "/api/files/lookup": {
    post: {
      summary: "My uploads with these SHA-256 digests and sizes (null where none), to skip their upload",
      body: fileLookupRequest,
      response: fileLookupResponse,
    },
  },
  "/api/files/{id}": {
    delete: { summary: "Delete an upload of mine that no job reads (409 while one does)", status: 204 },
  },
  "/api/rulesets": { get: { summary: "Rulesets for sanitize", response: z.array(ruleset) } },
  "/api/libraries": {
    get: { summary: "Capture libraries (signed in): names only", response: z.array(library) },
  },
  "/api/libraries/{name}/entries": {
    get: {
      summary: "One folder of a library: sub-folders and captures, with their info once read (signed in)",
      query: { path: "the folder, relative to the library (default: its top)" },
      response: libraryListing,
    },
  },
  "/api/jobs": {
    get: { summary: "One page of my jobs (newest first unless sorted)", query: jobListParams, response: jobPage },
    post: { summary: "Create a job; it is queued", body: createJobRequest, response: job, status: 201 },
  },
  "/api/jobs/public": {
    get: { summary: "One page of everyone's public jobs (also anonymous)", query: jobListParams, response: jobPage },
  },
  "/api/jobs/{id}": {
    get: { summary: "One job", response: job },
    patch: { summary: "Change title, description, public flag", body: updateJobRequest, response: job },
    delete: { summary: "Delete a job and its files (a running job is cancelled first)", status: 204 },
  },
  "/api/jobs/{id}/cancel": { post: { summary: "Cancel a queued or running job", response: job } },
  "/api/jobs/{id}/retry": {
    post: {
      summary: "Queue a failed or cancelled job again as a new job (same capability, parameters, inputs)",
      response: job,
      status: 201,
    },
  },
  "/api/jobs/{id}/lineage": {
    get: {
      summary: "The jobs whose outputs it read (recursively) and the jobs that read its outputs, the readable ones",
      response: jobLineage,
    },
  },
  "/api/jobs/{id}/events": {
    get: { summary: "Server-sent events: the job now and at each change", response: "event-stream" },
  },
  "/api/jobs/{id}/outputs.zip": { get: { summary: "All outputs as one zip, streamed", response: "binary" } },
  "/api/jobs/{id}/outputs/{name}": { get: { summary: "One output; supports Range", response: "binary" } },
  "/api/jobs/{id}/outputs/{name}/columns": {
    get: { summary: "A CSV or Parquet output's columns, rows and oddities (feature explorer)", response: tableColumns },
  },
  "/api/jobs/{id}/outputs/{name}/columns/{column}": {
    get: {
      summary: "One column over every row: counts, statistics, a histogram or its top values, optionally split",
      query: {
        bins: "histogram bins, 1 to 200 (default 40)",
        scale: "linear (default) or log: bins of equal width in sign(x)·log10(1 + |x|)",
        by: "label or class: counts per group of that column's values",
      },
      response: columnSummary,
    },
  },
  "/api/jobs/{id}/outputs/{name}/images": {
    get: {
      summary: "A page of an images zip's images, each pixel row with its manifest labels and its session (gallery)",
      query: {
        offset: "images to skip (default 0)",
        limit: "images, 1 to 100 (default 24); fewer when a page would pass 4096 pixel rows",
      },
      response: galleryPage,
    },
  },
  "/api/jobs/{id}/outputs/{name}/images/{number}": {
    get: { summary: "The PNG of the image with that number (images/image-000001.png is 1)", response: "binary" },
  },
  "/api/jobs/{id}/outputs/{name}/sessions": {
    get: {
      summary: "Sessions of an IPT output found by address and port, with their packet counts (IPT plots)",
      query: {
        q: "ports and addresses (or their starts), apart by spaces; every one must match",
        from: "the data row to search from (default 1); an answer's nextFrom goes on",
        limit: "sessions, 1 to 100 (default 20)",
        minPackets: "sessions of fewer packets are passed over (default 1)",
      },
      response: iptSessionPage,
    },
  },
  "/api/jobs/{id}/outputs/{name}/series": {
    get: {
      summary: "The inter-packet times of chosen sessions of an IPT output (their first 5000 gaps)",
      query: { rows: "up to 8 data rows, apart by commas" },
      response: iptSeriesAnswer,
    },
  },
  "/singup": { post: { summary: "Original product: register", body: signupRequest, response: sessionUser } },
  "/singin": { post: { summary: "Original product: sign in", body: signinRequest, response: sessionUser } },
  "/sesion": { post: { summary: "Original product: session check", response: sessionResponse } },
  "/logout": { post: { summary: "Original product: sign out" } },
  "/dataSets": { get: { summary: "Original product: my datasets", response: jobList } },
  "/public/dataSets": { get: { summary: "Original product: public datasets", response: jobList } },
  "/dataSet/": { post: { summary: "Original product: one dataset", body: legacyIdRequest, response: job } },
  "/new": {
    post: {
      summary: "Original product: create a dataset (same body as POST /api/jobs)",
      body: createJobRequest,
      response: job,
    },
  },
  "/update": { put: { summary: "Original product: update a dataset", body: legacyUpdateRequest, response: job } },
  "/delete": { post: { summary: "Original product: delete a dataset", body: legacyIdRequest } },
  "/dowload": {
    post: {
      summary: "Original product: download one output (file) or all as zip",
      body: legacyDownloadRequest,
      response: "binary",
    },
  },
  "/upfile": { post: { summary: "Original product: upload a capture", body: "multipart", response: uploadedFile } },
  "/upfile/badtrafic": {
    post: { summary: "Original product: upload an attack capture", body: "multipart", response: uploadedFile },
  },
  "/upfile/u2": {
    post: {
      summary: "Original product: upload unified2 (or EVE JSON) alerts",
      body: "multipart",
      response: uploadedFile,
    },
  },
  "/extract/features": { post: { summary: "Original product: extract", body: legacyCapabilityRequest, response: job } },
  "/extract/featuresAndLabeling": {
    post: { summary: "Original product: label (binary)", body: legacyCapabilityRequest, response: job },
  },
  "/extract/featuresAndClass": {
    post: { summary: "Original product: label (multiclass)", body: legacyCapabilityRequest, response: job },
  },
  "/clear/dataset": { post: { summary: "Original product: sanitize", body: legacyCapabilityRequest, response: job } },
  "/merge/dataset": { post: { summary: "Original product: merge", body: legacyCapabilityRequest, response: job } },
  "/extract/images": { post: { summary: "Original product: images", body: legacyCapabilityRequest, response: job } },
  "/extract/ipts": {
    post: { summary: "Original product: inter-packet times", body: legacyCapabilityRequest, response: job },
  },
  "/code": { get: { summary: "Source archive app.tar.gz (signed in)", response: "binary" } },
  "/sampledatasets": { get: { summary: "sampledatasets.tar.gz (signed in)", response: "binary" } },
};

const jsonSchema = (schema: ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, unrepresentable: "any", target: "draft-2020-12" });

function responseContent(response: Operation["response"]) {
  if (!response) return { "application/json": { schema: { type: "object" } } };
  if (response === "binary") return { "application/octet-stream": { schema: { type: "string", format: "binary" } } };
  if (response === "event-stream") return { "text/event-stream": { schema: { type: "string" } } };
  return { "application/json": { schema: jsonSchema(response, "output") } };
}

export function openApiDocument() {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [path, methods] of Object.entries(operations)) {
    paths[path] = {};
    for (const [method, op] of Object.entries(methods)) {
      const parameters = [
        ...(path.includes("{id}") ? idParam : []),
        ...(path.includes("{name}") ? [{ name: "name", in: "path", required: true, schema: { type: "string" } }] : []),
        ...(path.includes("{column}")
          ? [{ name: "column", in: "path", required: true, schema: { type: "string" } }]
          : []),
        ...Object.entries(op.query ?? {}).map(([name, description]) => ({
          name,
          in: "query",
          description,
          schema: { type: "string" },
        })),
      ];
      paths[path][method] = {
        summary: op.summary,
        ...(parameters.length > 0 && { parameters }),
        ...(op.body && {
          requestBody: {
            required: true,
            content:
              op.body === "multipart"
                ? {
                    "multipart/form-data": {
                      schema: { type: "object", properties: { file: { type: "string", format: "binary" } } },
                    },
                  }
                : { "application/json": { schema: jsonSchema(op.body, "input") } },
          },
        }),
        responses: {
          [String(op.status ?? 200)]: {
            description: "success",
            content: op.status === 204 ? undefined : responseContent(op.response),
          },
          default: {
            description: "failure: a list of messages",
            content: { "application/json": { schema: jsonSchema(errorResponse, "output") } },
          },
        },
      };
    }
  }
  return {
    openapi: "3.1.0",
    info: { title: "Tracemill API", version: TRACEMILL_VERSION },
    paths,
  };
}

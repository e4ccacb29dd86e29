// Job details (/ui/details?id=…): parameters, inputs with sizes and hashes (and the jobs they came from), the lineage,
// timings, the run summary, charts, previews; "Run again with changes" for anyone who may read the job.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Job } from "@tracemill/contracts";
import { Fragment } from "react";
import { Link, useNavigate, useSearchParams } from "react-router";
import { api, messagesOf } from "../api/client.js";
import { ErrorBanners } from "../forms/fields.js";
import { CapabilityIcon, capabilityNames } from "../icons/capability-icons.js";
import { FileIcon, fileKindOf } from "../icons/file-icons.js";
import { usePageTitle } from "../layout/page-title.js";
import { capabilityRoutes } from "../pages/capability-routes.js";
import { DamageNotice } from "./damage-notice.js";
import { DatasetCard } from "./dataset/dataset-card.js";
import { datasetSummaryOf } from "./dataset/dataset-summary.js";
import { FeatureExplorer } from "./explorer/feature-explorer.js";
import { formatBytes } from "./file-picker.js";
import { JobInsights } from "./job-insights.js";
import { OutcomeIcon, outcomeLabel, ResultWarnings } from "./job-outcome.js";
import { JobPartsTable } from "./job-parts-table.js";
import { JobLineageSection } from "./lineage-graph.js";
import { isRecordList, SummaryValue } from "./summary-value.js";

/** Nested summary objects become dotted rows ("packets.read"), so the table stays narrow. */
export function flatten(record: Record<string, unknown>, prefix = ""): [string, unknown][] {
  return Object.entries(record).flatMap(([key, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? flatten(value as Record<string, unknown>, `${prefix}${key}.`)
      : [[`${prefix}${key}`, value] as [string, unknown]],
  );
}

/** A dotted name with a line-break opportunity after each dot ("ruleset.<wbr>classificationFile"). */
function DottedName({ name }: { name: string }) {
  return (
    <>
      {name.split(".").map((part, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one fixed name
        <Fragment key={i}>
          {i > 0 && (
            <>
              .<wbr />
            </>
          )}
          {part}
        </Fragment>
      ))}
    </>
  );
}

/**
 * A record as rows of dotted names and values (see flatten). A list of records (a small table of its own) takes the
 * whole width, in a row under its name.
 */
function FlatTable({ record }: { record: Record<string, unknown> }) {
  return (
    <table className="flat-table">
      <tbody>
        {flatten(record).map(([name, value]) =>
          isRecordList(value) ? (
            <Fragment key={name}>
              <tr>
                <th scope="row" colSpan={2}>
                  <DottedName name={name} />
                </th>
              </tr>
              <tr>
                <td colSpan={2}>
                  <SummaryValue value={value} label={name} />
                </td>
              </tr>
            </Fragment>
          ) : (
            <tr key={name}>
              <th scope="row" className="flat-name">
                <DottedName name={name} />
              </th>
              <td>
                <SummaryValue value={value} label={name} />
              </td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

function seconds(from: string | null, to: string | null): string {
  if (!from || !to) return "—";
  return `${((Date.parse(to) - Date.parse(from)) / 1000).toFixed(2)} s`;
}

export function JobDetailsPage() {
  const [search] = useSearchParams();
  const id = search.get("id") ?? "";
  const job = useQuery({
    queryKey: ["job", id],
    queryFn: () => api.job(id),
    enabled: id !== "",
    refetchInterval: (q) => (q.state.data?.status === "running" || q.state.data?.status === "queued" ? 2000 : false),
  });
  usePageTitle(job.data?.title ?? "Job details");
  if (!id) return <p>No job chosen.</p>;
  if (job.error) return <ErrorBanners messages={messagesOf(job.error)} />;
  if (!job.data) return <p aria-busy="true">Loading…</p>;
  return <Details job={job.data} />;
}

/** Why a job has no outputs, as its status says. */
function noOutputs(job: Job): string {
  if (job.status === "failed") return "No outputs: the job failed.";
  if (job.status === "cancelled") return "No outputs: the job was cancelled.";
  if (job.status === "succeeded") return "No outputs.";
  return "None yet.";
}

/** Retry of a failed or cancelled job (its owner's): a new job with the same inputs, whose details are shown next. */
function RetryButton({ job }: { job: Job }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const retry = useMutation({
    mutationFn: () => api.retryJob(job.id),
    onSuccess: async (created) => {
      await queryClient.invalidateQueries({ queryKey: ["jobs"] });
      navigate(`/ui/details?id=${encodeURIComponent(created.id)}`);
    },
  });
  return (
    <>
      <ErrorBanners messages={retry.error ? messagesOf(retry.error) : []} />
      <p>
        <button type="button" className="primary" disabled={retry.isPending} onClick={() => retry.mutate()}>
          Retry
        </button>{" "}
        <small>runs it again as a new job with the same inputs and parameters</small>
      </p>
    </>
  );
}

function Details({ job }: { job: Job }) {
  const ended = job.status === "failed" || job.status === "cancelled";
  // A dataset job's page is its card: the summary drawn as such instead of the generic charts and summary table.
  const dataset = job.capability === "dataset" ? datasetSummaryOf(job.summary) : undefined;
  return (
    <section className="details">
      <h1>
        <CapabilityIcon capability={job.capability} size={36} /> {job.title}
      </h1>
      <p className="lead">
        {capabilityNames[job.capability]} · <OutcomeIcon job={job} size={18} /> {outcomeLabel(job)}
        {job.status === "running" && ` ${Math.round(job.progress.percent)} % ${job.progress.stage}`} · by{" "}
        {job.owner.userName}
        {job.public ? " · public" : " · private"}
        {job.isOwner && (
          <>
            {" · "}
            <Link to={`/ui/update?id=${encodeURIComponent(job.id)}&title=${encodeURIComponent(job.title)}`}>Edit</Link>
          </>
        )}
      </p>
      {job.description && <p>{job.description}</p>}
      {job.error && (
        <p className="job-error" role="alert">
          <strong>Failed:</strong> {job.error}
        </p>
      )}
      <p>
        <Link className="button" to={`${capabilityRoutes[job.capability]}?from=${encodeURIComponent(job.id)}`}>
          Run again with changes
        </Link>{" "}
        <small>opens the wizard with this job's inputs and parameters, as a new job of yours</small>
      </p>
      {job.isOwner && ended && <RetryButton job={job} />}
      <DamageNotice job={job} />
      <ResultWarnings job={job} />
      <JobLineageSection job={job} />
      <h2>Outputs</h2>
      {job.outputs.length === 0 ? (
        <p>{noOutputs(job)}</p>
      ) : (
        <>
          <table className="wide">
            <thead>
              <tr>
                <th scope="col">Output</th>
                <th scope="col">Size</th>
                <th scope="col">SHA-256</th>
              </tr>
            </thead>
            <tbody>
              {job.outputs.map((output) => (
                <tr key={output.name}>
                  <td>
                    <a href={api.outputUrl(job.id, output.name)} download={output.name} className="with-icon">
                      <FileIcon kind={fileKindOf(output.kind, output.name)} size={24} /> {output.name}
                    </a>
                  </td>
                  <td>{formatBytes(output.size)}</td>
                  <td className="hash">{output.sha256 ?? "—"}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <a href={api.outputsZipUrl(job.id)} download>
            Download all (zip)
          </a>
        </>
      )}
      {dataset && <DatasetCard job={job} summary={dataset} />}
      {job.status === "succeeded" && !dataset && <JobInsights job={job} />}
      {job.status === "succeeded" && <FeatureExplorer job={job} />}
      {job.parts && <JobPartsTable parts={job.parts} />}
      <h2>Inputs</h2>
      <table className="wide">
        <thead>
          <tr>
            <th scope="col">Role</th>
            <th scope="col">Name</th>
            <th scope="col">Format</th>
            <th scope="col">Size</th>
            <th scope="col">SHA-256</th>
          </tr>
        </thead>
        <tbody>
          {job.inputs.map((input, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a job may list one file twice among its captures
            <tr key={`${input.role}-${index}`}>
              <td>{input.role}</td>
              <td>
                <FileIcon kind={fileKindOf(input.format, input.name)} size={24} /> {input.name}
                {input.from && (
                  <small className="input-source">
                    {" "}
                    output of{" "}
                    <Link to={`/ui/details?id=${encodeURIComponent(input.from.jobId)}`}>{input.from.title}</Link>
                  </small>
                )}
              </td>
              <td>{input.format}</td>
              <td>{formatBytes(input.size)}</td>
              <td className="hash">{input.sha256}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <div className="details-grid">
        <div>
          <h2>Parameters</h2>
          <FlatTable record={job.params} />
          <h2>Timings</h2>
          <table>
            <tbody>
              <tr>
                <th scope="row">Created</th>
                <td>{new Date(job.createdAt).toLocaleString()}</td>
              </tr>
              <tr>
                <th scope="row">Started</th>
                <td>{job.startedAt ? new Date(job.startedAt).toLocaleString() : "—"}</td>
              </tr>
              <tr>
                <th scope="row">Finished</th>
                <td>{job.finishedAt ? new Date(job.finishedAt).toLocaleString() : "—"}</td>
              </tr>
              <tr>
                <th scope="row">Waited</th>
                <td>{seconds(job.createdAt, job.startedAt)}</td>
              </tr>
              <tr>
                <th scope="row">Ran</th>
                <td>{seconds(job.startedAt, job.finishedAt)}</td>
              </tr>
            </tbody>
          </table>
        </div>
        {(job.summary || !ended) && !dataset && (
          <div>
            <h2>Run summary</h2>
            {job.summary ? <FlatTable record={job.summary} /> : <p>Not available yet.</p>}
          </div>
        )}
      </div>
    </section>
  );
}

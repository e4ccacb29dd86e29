// Job details (/ui/details?id=…) in the order a reader asks: what ran (inputs and the jobs they came from, the lineage,
// parameters, timings), what came out (outputs), what it means (charts, previews, the feature explorer), then the run
// summary, its sections folded; "Run again with changes" for anyone who may read the job.
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { Job } from "@tracemill/contracts";
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
import { FlatTable, GroupedSummary } from "./flat-table.js";
import { JobInsights } from "./job-insights.js";
import { OutcomeIcon, outcomeLabel, ResultWarnings } from "./job-outcome.js";
import { JobPartsTable } from "./job-parts-table.js";
import { JobLineageSection } from "./lineage-graph.js";
import { useJobEvents } from "./use-job-events.js";

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
  useJobEvents(job.data);
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
      <section aria-labelledby="what-ran">
        <h2 id="what-ran">What ran</h2>
        <h3>Inputs</h3>
        <InputsTable job={job} />
        <JobLineageSection job={job} />
        <div className="details-grid">
          <div>
            <h3>Parameters</h3>
            <FlatTable record={job.params} />
          </div>
          <div>
            <h3>Timings</h3>
            <TimingsTable job={job} />
          </div>
        </div>
        {job.parts && <JobPartsTable parts={job.parts} />}
      </section>
      <section aria-labelledby="what-came-out">
        <h2 id="what-came-out">What came out</h2>
        <h3>Outputs</h3>
        <OutputsTable job={job} />
        {dataset && <DatasetCard job={job} summary={dataset} />}
      </section>
      {job.status === "succeeded" && !dataset && (
        <section aria-labelledby="what-it-means">
          <h2 id="what-it-means">What it means</h2>
          <JobInsights job={job} />
          <FeatureExplorer job={job} />
        </section>
      )}
      {job.status === "succeeded" && dataset && <FeatureExplorer job={job} />}
      {(job.summary || !ended) && !dataset && (
        <section aria-labelledby="run-summary">
          <h2 id="run-summary">Run summary</h2>
          {job.summary ? <GroupedSummary record={job.summary} /> : <p>Not available yet.</p>}
        </section>
      )}
    </section>
  );
}

function OutputsTable({ job }: { job: Job }) {
  if (job.outputs.length === 0) return <p>{noOutputs(job)}</p>;
  return (
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
  );
}

function InputsTable({ job }: { job: Job }) {
  return (
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
  );
}

function TimingsTable({ job }: { job: Job }) {
  const when = (at: string | null) => (at ? new Date(at).toLocaleString() : "—");
  return (
    <table>
      <tbody>
        <tr>
          <th scope="row">Created</th>
          <td>{when(job.createdAt)}</td>
        </tr>
        <tr>
          <th scope="row">Started</th>
          <td>{when(job.startedAt)}</td>
        </tr>
        <tr>
          <th scope="row">Finished</th>
          <td>{when(job.finishedAt)}</td>
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
  );
}

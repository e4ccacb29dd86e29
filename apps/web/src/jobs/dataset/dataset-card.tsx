// The dataset page's card: what DATASET.md says, drawn from the job's summary (the card's structured `built`) rather
// than from the Markdown, so no text of the file is ever inserted as HTML; with the classes per split as charts, the
// sortable audit table and the split files to download.
import type { Job } from "@tracemill/contracts";
import { api } from "../../api/client.js";
import { BarChart } from "../../charts/bar-chart.js";
import { GroupedBarChart } from "../../charts/grouped-bar-chart.js";
import { FileIcon, fileKindOf } from "../../icons/file-icons.js";
import { formatBytes } from "../format-bytes.js";
import { AuditTable } from "./audit-table.js";
import type { DatasetSummary } from "./dataset-summary.js";

const percent = (x: number) => `${(x * 100).toFixed(1)} %`;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : "s"}`;

function CountTable({
  caption,
  head,
  counts,
}: {
  caption: string;
  head: [string, string];
  counts: Record<string, number>;
}) {
  const entries = Object.entries(counts);
  if (entries.length === 0) return null;
  return (
    <table>
      <caption>{caption}</caption>
      <thead>
        <tr>
          <th scope="col">{head[0]}</th>
          <th scope="col">{head[1]}</th>
        </tr>
      </thead>
      <tbody>
        {entries.map(([name, count]) => (
          <tr key={name}>
            <th scope="row">{name}</th>
            <td className="number">{count}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Download({ job, name }: { job: Job; name: string }) {
  const output = job.outputs.find((o) => o.name === name);
  if (!output) return <>{name}</>;
  return (
    <a href={api.outputUrl(job.id, name)} download={name} className="with-icon">
      <FileIcon kind={fileKindOf(output.kind, name)} size={24} /> {name}
    </a>
  );
}

export function DatasetCard({ job, summary }: { job: Job; summary: DatasetSummary }) {
  const classes = Object.keys(summary.classes);
  const features = Array.isArray(job.params.features) ? job.params.features.map(String) : [];
  const audit = job.params.audit as { threshold?: number; depth?: number } | undefined;
  const labels = summary.labels ?? {};
  return (
    <section className="dataset-card" aria-labelledby="dataset-card-title">
      <h2 id="dataset-card-title">Dataset card</h2>
      <p>
        {plural(summary.rows, "session")} from {plural(summary.inputs.length, "capture")}
        {summary.tracemill?.version && `, built by Tracemill ${summary.tracemill.version}`}
        {features.length > 0 && ` with the feature sets ${features.join(", ")}`} (
        {plural(summary.columns.length, "column")}
        ). Build it again with <code>tracemill dataset build dataset.json</code>, the inputs in the folders the card
        names.
      </p>
      <h3>Caveats</h3>
      {summary.caveats.length === 0 ? (
        <p>None found.</p>
      ) : (
        <ul className="caveats" aria-label="Caveats">
          {summary.caveats.map((caveat) => (
            <li key={caveat}>{caveat}</li>
          ))}
        </ul>
      )}
      <h3>Classes and splits</h3>
      <div className="charts">
        <GroupedBarChart
          title="Sessions per class and split"
          series={summary.splits.map((s) => s.name)}
          groups={classes.map((name) => ({ label: name, values: summary.splits.map((s) => s.byClass[name] ?? 0) }))}
        />
        <BarChart
          title="Sessions per class"
          bars={classes.map((name) => ({ label: name, value: summary.classes[name] }))}
          labelWidth={140}
        />
      </div>
      <div className="table-scroll">
        <table className="wide splits">
          <caption>Splits: download each file</caption>
          <thead>
            <tr>
              <th scope="col">Split</th>
              <th scope="col">File</th>
              <th scope="col">Target</th>
              <th scope="col">Achieved</th>
              <th scope="col">Sessions</th>
              {classes.map((name) => (
                <th key={name} scope="col">
                  {name}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {summary.splits.map((split) => (
              <tr key={split.name}>
                <th scope="row">{split.name}</th>
                <td>
                  <Download job={job} name={split.file} />
                  {split.unflaggedFile && (
                    <>
                      <br />
                      <Download job={job} name={split.unflaggedFile} />
                    </>
                  )}
                </td>
                <td className="number">{percent(split.fraction)}</td>
                <td className="number">{percent(split.achieved)}</td>
                <td className="number">{split.rows}</td>
                {classes.map((name) => (
                  <td key={name} className="number">
                    {split.byClass[name] ?? 0}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <p>
        The card: <Download job={job} name="dataset.json" /> (to build it again) and{" "}
        <Download job={job} name="DATASET.md" /> (to read).
      </p>
      <h3>Labels</h3>
      <p>Sources in the order of precedence: {labels.precedence?.join(", ") || "none"}.</p>
      <div className="details-grid">
        <CountTable
          caption="Sessions by label source"
          head={["source", "sessions"]}
          counts={labels.sessionsBySource ?? {}}
        />
        <CountTable
          caption="Conflicts (winner > other)"
          head={["sources", "sessions"]}
          counts={labels.conflicts ?? {}}
        />
      </div>
      <h3>Leakage audit</h3>
      <p>
        Each column alone, as a depth-{audit?.depth ?? 2} decision tree trained on {summary.audit.trainSplit} and scored
        on {summary.audit.testSplit}.
      </p>
      <AuditTable rows={summary.audit.rows} threshold={audit?.threshold} />
      {summary.audit.skipped && summary.audit.skipped.length > 0 && (
        <p>Not audited: {summary.audit.skipped.map((s) => `${s.column} (${s.reason})`).join(", ")}.</p>
      )}
      <h3>Captures</h3>
      <div className="table-scroll">
        <table className="wide">
          <thead>
            <tr>
              <th scope="col">Capture</th>
              <th scope="col">Size</th>
              <th scope="col">SHA-256</th>
              <th scope="col">First session</th>
              <th scope="col">Last session</th>
              <th scope="col">Sessions</th>
              <th scope="col">Read to the end</th>
            </tr>
          </thead>
          <tbody>
            {summary.inputs.map((input, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: one capture may be listed twice
              <tr key={index}>
                <th scope="row">{input.name}</th>
                <td>{formatBytes(input.bytes)}</td>
                <td className="hash">{input.sha256 ?? "not taken"}</td>
                <td>{input.first ?? "–"}</td>
                <td>{input.last ?? "–"}</td>
                <td className="number">{input.sessions}</td>
                <td>{input.complete ? "yes" : "no (damaged)"}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <div className="details-grid">
        <CountTable
          caption="Sessions by end reason"
          head={["end reason", "sessions"]}
          counts={summary.sessions?.byEndReason ?? {}}
        />
        <CountTable
          caption="Packets"
          head={["packets", "count"]}
          counts={{
            read: summary.packets?.read ?? 0,
            "in sessions": summary.packets?.decoded ?? 0,
            ...Object.fromEntries(Object.entries(summary.packets?.ignored ?? {}).map(([k, v]) => [`ignored: ${k}`, v])),
          }}
        />
      </div>
    </section>
  );
}

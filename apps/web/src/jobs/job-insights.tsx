// Pictures of a finished job: sessions per protocol, label/class distribution, length and duration histograms (the
// server's figures over every row, as the feature explorer has them), the first rows, and previews.
import { useQueries, useQuery } from "@tanstack/react-query";
import type { ColumnSummary, Job } from "@tracemill/contracts";
import { api } from "../api/client.js";
import { type Bar, BarChart, Histogram } from "../charts/bar-chart.js";
import { findColumn, parseCsv, protocolName } from "../charts/csv.js";
import { tableOutputs } from "./explorer/table-outputs.js";
import { ImageGallery } from "./gallery/image-gallery.js";
import { IptPlot } from "./ipt/ipt-plot.js";
import { JobTimeline } from "./job-timeline.js";
import { SummaryCharts } from "./summary-charts.js";

const labelName = (value: string) => (value === "1" ? "1 attack" : value === "0" ? "0 normal" : value || "none");
/** The first rows of a CSV are in its first bytes; a range keeps a large output cheap to preview. */
const PREVIEW_BYTES = 256 * 1024;
const PREVIEW_ROWS = 10;

/** The charts drawn when the table has one of the columns: bars of its values, or a histogram of its bins. */
const CHARTS: { title: string; names: string[]; rename?: (value: string) => string; unit?: string }[] = [
  { title: "Sessions per protocol", names: ["protocol", "proto"], rename: protocolName },
  { title: "Sessions per label", names: ["label"], rename: labelName },
  { title: "Sessions per class", names: ["class", "classification", "category"] },
  { title: "Mean packet length per session", names: ["mean_flowpktl", "mean_fpktl"], unit: "bytes" },
  { title: "Session duration", names: ["flowduration", "duration"], unit: "s" },
];

export function JobInsights({ job }: { job: Job }) {
  const tables = tableOutputs(job);
  const table = tables.find((o) => /label|class/i.test(o.name)) ?? tables[0];
  const csvs = job.outputs.filter((o) => o.name.toLowerCase().endsWith(".csv"));
  const csv = csvs.find((o) => /label|class/i.test(o.name)) ?? csvs[0];
  const images = job.outputs.find((o) => o.kind === "images-zip");
  const ipt = job.outputs.find((o) => o.kind === "ipt-txt");
  const txt = job.outputs.find((o) => o.name.toLowerCase().endsWith(".txt"));
  const parquets = job.outputs.filter((o) => o.name.toLowerCase().endsWith(".parquet"));
  return (
    <>
      {table && <TableCharts job={job} name={table.name} />}
      {csv && <CsvPreview job={job} name={csv.name} size={csv.size} />}
      {parquets.map((output) => (
        <ParquetNote key={output.name} job={job} name={output.name} />
      ))}
      <SummaryCharts job={job} />
      <JobTimeline job={job} />
      {images && <ImageGallery job={job} name={images.name} />}
      {txt && <TextPreview job={job} name={txt.name} />}
      {ipt && <IptPlot job={job} name={ipt.name} />}
    </>
  );
}

/** The charts of a table output, each from the server's answer for its column (the explorer's queries, shared). */
function TableCharts({ job, name }: { job: Job; name: string }) {
  const table = useQuery({
    queryKey: ["explorer", job.id, name],
    queryFn: () => api.tableColumns(job.id, name),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const names = table.data?.columns.map((column) => column.name) ?? [];
  const charts = CHARTS.flatMap((chart) => {
    const at = findColumn(names, chart.names);
    return at < 0 ? [] : [{ ...chart, column: names[at] }];
  });
  const answers = useQueries({
    queries: charts.map((chart) => ({
      queryKey: ["explorer", job.id, name, chart.column, "linear", ""],
      queryFn: () => api.columnSummary(job.id, name, chart.column, { scale: "linear" }),
      staleTime: Number.POSITIVE_INFINITY,
    })),
  });
  // The first look at a CSV output has the server read it whole (seconds for a large one); later looks are quick.
  if (table.isPending) return <p aria-busy="true">Charting {name}…</p>;
  if (charts.length === 0) return null;
  return (
    <>
      <h2>Charts</h2>
      <div className="charts">
        {charts.map((chart, i) => (
          <TableChart key={chart.title} chart={chart} summary={answers[i].data} />
        ))}
      </div>
    </>
  );
}

function TableChart(props: { chart: (typeof CHARTS)[number]; summary: ColumnSummary | undefined }) {
  const { chart, summary } = props;
  if (!summary) return null;
  if (chart.unit !== undefined) {
    return summary.histogram && <Histogram title={chart.title} unit={chart.unit} bins={summary.histogram.bins} />;
  }
  const rename = chart.rename ?? ((value: string) => value);
  const bars: Bar[] = (summary.top ?? []).map((value) => ({ label: rename(value.value), value: value.count }));
  return bars.length > 0 && <BarChart title={chart.title} bars={bars} />;
}

function CsvPreview({ job, name, size }: { job: Job; name: string; size: number }) {
  const text = useQuery({
    queryKey: ["output", job.id, name],
    queryFn: () => api.outputText(job.id, name, PREVIEW_BYTES),
  });
  if (!text.data) return text.isPending ? <p aria-busy="true">Reading {name}…</p> : null;
  const table = parseCsv(text.data, size <= text.data.length);
  return (
    <>
      <h2>First rows of {name}</h2>
      <section className="table-scroll" aria-label={`Preview of ${name}`}>
        <table className="preview">
          <thead>
            <tr>
              {table.header.map((h) => (
                <th key={h} scope="col">
                  {h}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {table.rows.slice(0, PREVIEW_ROWS).map((row, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: rows of a static preview have no identity of their own
              <tr key={i}>
                {row.map((cell, j) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                  <td key={j}>{cell}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </section>
    </>
  );
}

/** A preview would need a Parquet reader in the web bundle: the file is meant for the user's own tools. */
function ParquetNote({ job, name }: { job: Job; name: string }) {
  return (
    <p className="hint" role="note">
      {name} has no preview in the browser:{" "}
      <a href={api.outputUrl(job.id, name)} download={name}>
        download it
      </a>{" "}
      and load it with pandas, polars or DuckDB.
    </p>
  );
}

function TextPreview({ job, name }: { job: Job; name: string }) {
  const text = useQuery({ queryKey: ["output", job.id, name], queryFn: () => api.outputText(job.id, name, 20_000) });
  const lines = text.data?.split("\n").slice(0, PREVIEW_ROWS) ?? [];
  return (
    <>
      <h2>First lines of {name}</h2>
      <pre className="text-preview">{lines.join("\n")}</pre>
    </>
  );
}

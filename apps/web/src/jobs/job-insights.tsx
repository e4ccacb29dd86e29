// Pictures of a finished job: sessions per protocol, label/class distribution, length and duration histograms, previews.
import { useQuery } from "@tanstack/react-query";
import type { Job } from "@tracemill/contracts";
import { useEffect, useState } from "react";
import { api } from "../api/client.js";
import { BarChart, Histogram, histogram } from "../charts/bar-chart.js";
import { countBy, findColumn, parseCsv, protocolName, type Table } from "../charts/csv.js";
import { readZipEntries } from "../charts/zip-entries.js";
import { SummaryCharts } from "./summary-charts.js";

const labelName = (value: string) => (value === "1" ? "1 attack" : value === "0" ? "0 normal" : value || "none");
const PREVIEW_BYTES = 2_000_000;
const PREVIEW_ROWS = 10;
const PREVIEW_IMAGES = 6;

function numbers(table: Table, column: number): number[] {
  return column < 0 ? [] : table.rows.map((r) => Number(r[column])).filter(Number.isFinite);
}

export function JobInsights({ job }: { job: Job }) {
  const csvs = job.outputs.filter((o) => o.name.toLowerCase().endsWith(".csv"));
  const csv = csvs.find((o) => /label|class/i.test(o.name)) ?? csvs[0];
  const zip = job.outputs.find((o) => o.name.toLowerCase().endsWith(".zip"));
  const txt = job.outputs.find((o) => o.name.toLowerCase().endsWith(".txt"));
  const parquets = job.outputs.filter((o) => o.name.toLowerCase().endsWith(".parquet"));
  return (
    <>
      {csv && <CsvInsights job={job} name={csv.name} size={csv.size} />}
      {parquets.map((output) => (
        <ParquetNote key={output.name} job={job} name={output.name} />
      ))}
      <SummaryCharts job={job} />
      {zip && <ImagePreview job={job} name={zip.name} />}
      {txt && <TextPreview job={job} name={txt.name} />}
    </>
  );
}

function CsvInsights({ job, name, size }: { job: Job; name: string; size: number }) {
  const text = useQuery({
    queryKey: ["output", job.id, name],
    queryFn: () => api.outputText(job.id, name, PREVIEW_BYTES),
  });
  if (!text.data) return text.isPending ? <p aria-busy="true">Reading {name}…</p> : null;
  const table = parseCsv(text.data, size <= text.data.length);
  const protocol = findColumn(table.header, ["protocol", "proto"]);
  const label = findColumn(table.header, ["label"]);
  const klass = findColumn(table.header, ["class", "classification", "category"]);
  const pktl = findColumn(table.header, ["mean_flowpktl", "mean_fpktl"]);
  const duration = findColumn(table.header, ["flowduration", "duration"]);
  const sampled = size > text.data.length ? ` (first ${table.rows.length} sessions)` : "";
  return (
    <>
      <h2>Charts{sampled}</h2>
      <div className="charts">
        {protocol >= 0 && <BarChart title="Sessions per protocol" bars={countBy(table.rows, protocol, protocolName)} />}
        {label >= 0 && <BarChart title="Sessions per label" bars={countBy(table.rows, label, labelName)} />}
        {klass >= 0 && <BarChart title="Sessions per class" bars={countBy(table.rows, klass).slice(0, 26)} />}
        {pktl >= 0 && (
          <Histogram title="Mean packet length per session" unit="bytes" bins={histogram(numbers(table, pktl))} />
        )}
        {duration >= 0 && <Histogram title="Session duration" unit="s" bins={histogram(numbers(table, duration))} />}
      </div>
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

function ImagePreview({ job, name }: { job: Job; name: string }) {
  const [urls, setUrls] = useState<{ name: string; url: string }[]>([]);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    let live = true;
    const made: string[] = [];
    api
      .outputBytes(job.id, name)
      .then((buffer) => readZipEntries(buffer, (n) => n.toLowerCase().endsWith(".png"), PREVIEW_IMAGES))
      .then((entries) => {
        if (!live) return;
        const list = entries.map((e) => {
          const url = URL.createObjectURL(new Blob([e.data as BlobPart], { type: "image/png" }));
          made.push(url);
          return { name: e.name, url };
        });
        setUrls(list);
      })
      .catch((error: Error) => live && setProblem(error.message));
    return () => {
      live = false;
      for (const url of made) URL.revokeObjectURL(url);
    };
  }, [job.id, name]);
  return (
    <>
      <h2>First images of {name}</h2>
      {problem && <p>{problem}</p>}
      <div className="image-strip">
        {urls.map((image) => (
          <PreviewImage key={image.name} name={image.name} url={image.url} />
        ))}
      </div>
    </>
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

/** One image at twice its size (pixels kept sharp), captioned with its real size in pixels. */
function PreviewImage({ name, url }: { name: string; url: string }) {
  const [size, setSize] = useState<[number, number]>();
  return (
    <figure>
      <img
        src={url}
        alt={`Sessions drawn in grayscale: ${name}`}
        width={size ? size[0] * 2 : undefined}
        height={size ? size[1] * 2 : undefined}
        onLoad={(e) => setSize([e.currentTarget.naturalWidth, e.currentTarget.naturalHeight])}
      />
      <figcaption>
        {name}
        {size && ` (${size[0]} × ${size[1]} px)`}
      </figcaption>
    </figure>
  );
}

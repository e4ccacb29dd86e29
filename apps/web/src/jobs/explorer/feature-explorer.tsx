// "Explore features" on a job's details: any column of any table output (CSV, Parquet, a dataset's splits) drawn and
// summed up by the server over every row, on a linear or log scale, split by label or class when the table has them.

import { keepPreviousData, useQuery } from "@tanstack/react-query";
import type { HistogramScale, Job, SplitColumn, TableColumn } from "@tracemill/contracts";
import { useId, useState } from "react";
import { api, messagesOf } from "../../api/client.js";
import { ScaleChoice } from "../../charts/scale-choice.js";
import { ErrorBanners } from "../../forms/fields.js";
import { ColumnChart } from "./column-chart.js";
import { ColumnPicker } from "./column-picker.js";
import { ColumnStats } from "./column-stats.js";
import { formatNumber, tableOutputs } from "./table-outputs.js";

/** Columns shown first when a table is opened: the ones that tell most about sessions, else the first number. */
const FIRST_CHOICES = ["mean_flowpktl", "flowduration", "bidirectional_bytes", "Flow Duration"];

function firstColumn(columns: TableColumn[]): string | undefined {
  const preferred = FIRST_CHOICES.find((name) => columns.some((column) => column.name === name));
  return preferred ?? columns.find((column) => column.type === "numeric")?.name ?? columns[0]?.name;
}

export function FeatureExplorer({ job }: { job: Job }) {
  const tables = tableOutputs(job);
  const [output, setOutput] = useState(tables[0]?.name);
  const id = useId();
  if (tables.length === 0 || output === undefined) return null;
  return (
    <section className="explorer" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Explore features</h2>
      {tables.length > 1 && (
        <p>
          <label htmlFor={`${id}-output`}>Output</label>{" "}
          <select id={`${id}-output`} value={output} onChange={(event) => setOutput(event.target.value)}>
            {tables.map((table) => (
              <option key={table.name} value={table.name}>
                {table.name}
              </option>
            ))}
          </select>
        </p>
      )}
      <TableExplorer key={output} job={job} output={output} />
    </section>
  );
}

function TableExplorer({ job, output }: { job: Job; output: string }) {
  const table = useQuery({
    queryKey: ["explorer", job.id, output],
    queryFn: () => api.tableColumns(job.id, output),
    staleTime: Number.POSITIVE_INFINITY,
  });
  const [picked, setPicked] = useState<string>();
  const [scale, setScale] = useState<HistogramScale>("linear");
  const [by, setBy] = useState<SplitColumn | "">("");
  const id = useId();
  if (table.error) return <ErrorBanners messages={messagesOf(table.error)} />;
  if (!table.data) return <p aria-busy="true">Reading {output}…</p>;
  const { rows, columns, splitBy, problems } = table.data;
  const column = picked ?? firstColumn(columns);
  return (
    <>
      <p>
        {output}: {formatNumber(rows)} rows, {columns.length} columns.
      </p>
      {problems.map((problem) => (
        <p key={problem} className="hint" role="note">
          {problem}
        </p>
      ))}
      {columns.length > 0 && (
        <div className="explorer-grid">
          <div className="explorer-controls">
            <ColumnPicker columns={columns} value={column} onChange={setPicked} />
            <ScaleChoice name={`${id}-scale`} value={scale} onChange={setScale} />
            {splitBy.length > 0 && (
              <p>
                <label htmlFor={`${id}-by`}>Split by</label>{" "}
                <select id={`${id}-by`} value={by} onChange={(event) => setBy(event.target.value as SplitColumn | "")}>
                  <option value="">none</option>
                  {splitBy.map((name) => (
                    <option key={name} value={name}>
                      {name}
                    </option>
                  ))}
                </select>
              </p>
            )}
          </div>
          {column !== undefined && <ColumnView job={job} output={output} column={column} scale={scale} by={by} />}
        </div>
      )}
    </>
  );
}

function ColumnView(props: { job: Job; output: string; column: string; scale: HistogramScale; by: SplitColumn | "" }) {
  const { job, output, column, scale, by } = props;
  const summary = useQuery({
    queryKey: ["explorer", job.id, output, column, scale, by],
    queryFn: () => api.columnSummary(job.id, output, column, { scale, ...(by && { by }) }),
    // An output never changes once its job succeeded; the last answer stays while the next one comes.
    staleTime: Number.POSITIVE_INFINITY,
    placeholderData: keepPreviousData,
  });
  if (summary.error) return <ErrorBanners messages={messagesOf(summary.error)} />;
  if (!summary.data) return <p aria-busy="true">Reading {column}…</p>;
  return (
    <div className="explorer-result" aria-busy={summary.isPlaceholderData}>
      <ColumnChart summary={summary.data} />
      <ColumnStats summary={summary.data} />
    </div>
  );
}

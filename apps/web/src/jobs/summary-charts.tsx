// Charts read from a job's run summary, for jobs without a table to chart: sessions per protocol, alerts per signature.
import type { Job } from "@tracemill/contracts";
import { type Bar, BarChart } from "../charts/bar-chart.js";
import { tableOutputs } from "./explorer/table-outputs.js";

const MAX_BARS = 15;

interface SummaryChart {
  title: string;
  bars: Bar[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}

/** Finds count tables in a summary: `byProtocol` records and alert lists ({signature | classtype, alerts}). */
export function summaryCharts(summary: Record<string, unknown>, withTable: boolean): SummaryChart[] {
  const charts: SummaryChart[] = [];
  const walk = (value: unknown, key: string) => {
    if (Array.isArray(value)) {
      const rows = value.filter(isRecord).filter((r) => typeof r.alerts === "number");
      const field = ["signature", "classtype"].find(
        (f) => rows.length > 0 && rows.every((r) => typeof r[f] === "string"),
      );
      if (field)
        charts.push({
          title: `Alerts per ${field}`,
          bars: rows.slice(0, MAX_BARS).map((r) => ({ label: String(r[field]), value: r.alerts as number })),
        });
      return;
    }
    if (!isRecord(value)) return;
    if (key === "byProtocol" && !withTable && Object.values(value).every((v) => typeof v === "number")) {
      const bars = Object.entries(value).map(([label, count]) => ({
        label: label.toUpperCase(),
        value: count as number,
      }));
      charts.push({ title: "Sessions per protocol", bars });
      return;
    }
    for (const [k, v] of Object.entries(value)) walk(v, k);
  };
  walk(summary, "");
  return charts;
}

export function SummaryCharts({ job }: { job: Job }) {
  if (!job.summary) return null;
  // A table output's protocols are charted from the table itself (job-insights.tsx), over every row.
  const charts = summaryCharts(job.summary, tableOutputs(job).length > 0);
  if (charts.length === 0) return null;
  return (
    <>
      <h2>From the run summary</h2>
      <div className="charts">
        {charts.map((chart) => (
          <BarChart
            key={chart.title}
            title={chart.title}
            bars={chart.bars}
            width={chart.title.startsWith("Alerts") ? 680 : 420}
            labelWidth={chart.title.startsWith("Alerts") ? 380 : 110}
          />
        ))}
      </div>
    </>
  );
}

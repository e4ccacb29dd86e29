// Inter-packet times of chosen sessions as step lines in SVG: gap k of a session is drawn flat from packet k to k+1 at
// its height, on a linear or log scale. A signed output's direction is left out (each gap drawn by its size). The
// picture is described by its caption; each series' figures follow in a table.
import type { IptSeries } from "@tracemill/contracts";
import { seriesColour } from "../../charts/grouped-bar-chart.js";
import { formatNumber } from "../explorer/table-outputs.js";
import { sessionText } from "../session-text.js";

const WIDTH = 680;
const HEIGHT = 260;
const LEFT = 64;
const RIGHT = 12;
const TOP = 10;
const BOTTOM = 28;

export type IptScale = "linear" | "log";

/** Seconds in the unit that reads best: 1.5 s, 12 ms, 340 µs, 80 ns. */
export function secondsText(seconds: number): string {
  const size = Math.abs(seconds);
  if (size === 0) return "0 s";
  if (size >= 1) return `${formatNumber(seconds)} s`;
  if (size >= 1e-3) return `${formatNumber(seconds * 1e3)} ms`;
  if (size >= 1e-6) return `${formatNumber(seconds * 1e6)} µs`;
  return `${formatNumber(seconds * 1e9)} ns`;
}

/** The y scale: values to pixels, and the two values its axis is labelled with. */
function yScale(series: IptSeries[], scale: IptScale) {
  const values = series.flatMap((s) => s.gaps.map(Math.abs));
  const plot = HEIGHT - TOP - BOTTOM;
  const largest = values.reduce((most, v) => Math.max(most, v), 0);
  if (scale === "linear") {
    const top = largest || 1;
    return { y: (v: number) => TOP + plot - (plot * v) / top, low: 0, high: top };
  }
  // A log scale has no zero: zero gaps are drawn at its floor, the smallest gap above zero (or 1 ns).
  const low = values.reduce((least, v) => (v > 0 && v < least ? v : least), Number.POSITIVE_INFINITY);
  const floor = Number.isFinite(low) ? low : 1e-9;
  const high = Math.max(floor * 10, largest);
  const [from, to] = [Math.log10(floor), Math.log10(high)];
  return {
    y: (v: number) => TOP + plot - (plot * (Math.log10(Math.max(v, floor)) - from)) / (to - from),
    low: floor,
    high,
  };
}

/** A step line's path: flat at each gap's height from its packet to the next. */
function stepPath(gaps: number[], x: (k: number) => number, y: (v: number) => number): string {
  return gaps
    .map((gap, k) => `${k === 0 ? "M" : "L"}${x(k).toFixed(1)} ${y(Math.abs(gap)).toFixed(1)}H${x(k + 1).toFixed(1)}`)
    .join("");
}

export function IptChart({ series, scale, maxGaps }: { series: IptSeries[]; scale: IptScale; maxGaps: number }) {
  const drawn = series.filter((s) => s.gaps.length > 0);
  const longest = Math.max(1, ...drawn.map((s) => s.gaps.length));
  const x = (k: number) => LEFT + ((WIDTH - LEFT - RIGHT) * k) / longest;
  const { y, low, high } = yScale(drawn, scale);
  const caption = `Inter-packet times of ${series.length} session${series.length === 1 ? "" : "s"}, ${scale} scale`;
  return (
    <figure className="chart ipt-chart">
      <figcaption>{caption}</figcaption>
      <ul className="chart-legend" aria-label="Sessions drawn">
        {series.map((s, i) => (
          <li key={s.row}>
            <svg width="12" height="12" aria-hidden="true">
              <rect width="12" height="12" rx="2" fill={seriesColour(i)} />
            </svg>{" "}
            {sessionText(s.session)}
          </li>
        ))}
      </ul>
      <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={caption}>
        <line className="axis" x1={LEFT} x2={LEFT} y1={TOP} y2={HEIGHT - BOTTOM} />
        <line className="axis" x1={LEFT} x2={WIDTH - RIGHT} y1={HEIGHT - BOTTOM} y2={HEIGHT - BOTTOM} />
        <text x={LEFT - 4} y={y(high) + 4} textAnchor="end" fontSize="11" fill="currentColor">
          {secondsText(high)}
        </text>
        <text x={LEFT - 4} y={y(low)} textAnchor="end" fontSize="11" fill="currentColor">
          {secondsText(low)}
        </text>
        <text x={LEFT} y={HEIGHT - 8} fontSize="11" fill="currentColor">
          packet 1
        </text>
        <text x={WIDTH - RIGHT} y={HEIGHT - 8} textAnchor="end" fontSize="11" fill="currentColor">
          packet {longest + 1}
        </text>
        {series.map((s, i) =>
          s.gaps.length === 0 ? null : (
            <path
              key={s.row}
              className="ipt-line"
              data-row={s.row}
              d={stepPath(s.gaps, x, y)}
              stroke={seriesColour(i)}
              fill="none"
            >
              <title>{sessionText(s.session)}</title>
            </path>
          ),
        )}
      </svg>
      {series.some((s) => s.packets - 1 > s.gaps.length) && (
        <p className="hint">
          Sessions of more than {formatNumber(maxGaps + 1)} packets are drawn to their first {formatNumber(maxGaps)}{" "}
          gaps.
        </p>
      )}
      <SeriesTable series={series} />
    </figure>
  );
}

function SeriesTable({ series }: { series: IptSeries[] }) {
  const sorted = (s: IptSeries) => s.gaps.map(Math.abs).sort((a, b) => a - b);
  return (
    <table className="chart-table">
      <caption className="visually-hidden">Each session's gaps</caption>
      <thead>
        <tr>
          <th scope="col">Session</th>
          <th scope="col">Packets</th>
          <th scope="col">Gaps drawn</th>
          <th scope="col">Smallest</th>
          <th scope="col">Median</th>
          <th scope="col">Largest</th>
        </tr>
      </thead>
      <tbody>
        {series.map((s) => {
          const gaps = sorted(s);
          return (
            <tr key={s.row}>
              <th scope="row">{sessionText(s.session)}</th>
              <td>{formatNumber(s.packets)}</td>
              <td>{formatNumber(gaps.length)}</td>
              <td>{gaps.length > 0 ? secondsText(gaps[0]) : "—"}</td>
              <td>
                {gaps.length > 0 ? secondsText((gaps[(gaps.length - 1) >> 1] + gaps[gaps.length >> 1]) / 2) : "—"}
              </td>
              <td>{gaps.length > 0 ? secondsText(gaps[gaps.length - 1]) : "—"}</td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

// Small SVG charts of our own: horizontal bars for counts by category, vertical bars for histograms.
export interface Bar {
  label: string;
  value: number;
}

/** Horizontal bars; labels longer than their column are cut with an ellipsis (the full text is the tooltip). */
export function BarChart(props: { title: string; bars: Bar[]; width?: number; labelWidth?: number }) {
  const { title, bars, width = 420, labelWidth = 110 } = props;
  const max = Math.max(1, ...bars.map((b) => b.value));
  const row = 22;
  const maxChars = Math.floor(labelWidth / 7);
  const height = bars.length * row + 8;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
        {bars.map((bar, i) => {
          const w = ((width - labelWidth - 60) * bar.value) / max;
          return (
            <g key={bar.label} transform={`translate(0 ${i * row + 4})`}>
              <text x={labelWidth - 6} y={14} textAnchor="end" fontSize="12" fill="currentColor">
                <title>{bar.label}</title>
                {bar.label.length > maxChars ? `${bar.label.slice(0, maxChars - 1)}…` : bar.label}
              </text>
              <rect x={labelWidth} y={2} width={Math.max(1, w)} height={row - 6} fill="var(--accent)" rx="2" />
              <text x={labelWidth + w + 6} y={14} fontSize="12" fill="currentColor">
                {bar.value}
              </text>
            </g>
          );
        })}
      </svg>
    </figure>
  );
}

export interface Bin {
  from: number;
  to: number;
  count: number;
}

const short = (n: number) => (Math.abs(n) >= 1000 ? n.toExponential(1) : Number(n.toPrecision(3)).toString());

export function Histogram({
  title,
  unit,
  bins,
  width = 420,
}: {
  title: string;
  unit: string;
  bins: Bin[];
  width?: number;
}) {
  const height = 160;
  const max = Math.max(1, ...bins.map((b) => b.count));
  const barWidth = bins.length ? (width - 40) / bins.length : 0;
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <svg width={width} height={height + 24} viewBox={`0 0 ${width} ${height + 24}`} role="img" aria-label={title}>
        {bins.map((bin, i) => {
          const h = ((height - 10) * bin.count) / max;
          return (
            <rect
              key={`${bin.from}`}
              x={30 + i * barWidth}
              y={height - h}
              width={Math.max(1, barWidth - 2)}
              height={h}
              fill="var(--accent)"
            >
              <title>
                {short(bin.from)}–{short(bin.to)} {unit}: {bin.count}
              </title>
            </rect>
          );
        })}
        <text x={2} y={12} fontSize="11" fill="currentColor">
          {max}
        </text>
        <line x1={30} x2={width - 10} y1={height} y2={height} stroke="currentColor" />
        {bins.length > 0 && (
          <>
            <text x={30} y={height + 16} fontSize="11" fill="currentColor">
              {short(bins[0].from)}
            </text>
            <text x={width - 10} y={height + 16} fontSize="11" fill="currentColor" textAnchor="end">
              {short(bins[bins.length - 1].to)} {unit}
            </text>
          </>
        )}
      </svg>
    </figure>
  );
}

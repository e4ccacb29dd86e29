// Horizontal bars in groups: one group per category (a class), one bar per series (a split) in the series' colour,
// with a legend; each bar's tooltip names its group, series and value.
export interface BarGroup {
  label: string;
  /** One value per series, in the series' order. */
  values: number[];
}

/** Colours told apart in both themes and by most colour-blind readers (Okabe–Ito). */
const SERIES_COLOURS = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"];

export function seriesColour(index: number): string {
  return SERIES_COLOURS[index % SERIES_COLOURS.length];
}

export function GroupedBarChart(props: {
  title: string;
  series: string[];
  groups: BarGroup[];
  width?: number;
  labelWidth?: number;
}) {
  const { title, series, groups, width = 520, labelWidth = 140 } = props;
  const max = Math.max(1, ...groups.flatMap((g) => g.values));
  const bar = 14;
  const gap = 10;
  const groupHeight = series.length * bar + gap;
  const height = groups.length * groupHeight + 4;
  const maxChars = Math.floor(labelWidth / 7);
  return (
    <figure className="chart">
      <figcaption>{title}</figcaption>
      <ul className="chart-legend" aria-label={`${title}: legend`}>
        {series.map((name, s) => (
          <li key={name}>
            <span className="swatch" data-colour={seriesColour(s)}>
              <svg width="12" height="12" aria-hidden="true">
                <rect width="12" height="12" rx="2" fill={seriesColour(s)} />
              </svg>
            </span>{" "}
            {name}
          </li>
        ))}
      </ul>
      <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-label={title}>
        {groups.map((group, g) => (
          <g key={group.label} transform={`translate(0 ${g * groupHeight + 2})`}>
            <text
              x={labelWidth - 6}
              y={(series.length * bar) / 2 + 4}
              textAnchor="end"
              fontSize="12"
              fill="currentColor"
            >
              <title>{group.label}</title>
              {group.label.length > maxChars ? `${group.label.slice(0, maxChars - 1)}…` : group.label}
            </text>
            {group.values.map((value, s) => {
              const w = ((width - labelWidth - 60) * value) / max;
              return (
                <g key={series[s]} transform={`translate(0 ${s * bar})`}>
                  <rect
                    x={labelWidth}
                    y={1}
                    width={Math.max(1, w)}
                    height={bar - 2}
                    fill={seriesColour(s)}
                    rx="2"
                    data-testid="grouped-bar"
                  >
                    <title>{`${group.label}, ${series[s]}: ${value}`}</title>
                  </rect>
                  <text x={labelWidth + w + 6} y={bar - 3} fontSize="11" fill="currentColor">
                    {value}
                  </text>
                </g>
              );
            })}
          </g>
        ))}
      </svg>
    </figure>
  );
}

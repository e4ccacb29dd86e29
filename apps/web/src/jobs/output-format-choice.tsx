// The file an extraction writes its rows to (params.format): the CSV, or a Parquet file of the same rows.
import { useId } from "react";
import type { StepProps } from "./step-props.js";

const formats = [
  { value: "csv", label: "CSV", about: "Plain text, one row per session: opens anywhere, previewed here." },
  {
    value: "parquet",
    label: "Parquet",
    about: "Typed columns, compressed: smaller and faster to load in pandas, polars or DuckDB.",
  },
] as const;

export function OutputFormatChoice({ draft, setParam }: StepProps) {
  const id = useId();
  const current = draft.params.format === "parquet" ? "parquet" : "csv";
  return (
    <fieldset className="choice-list">
      <legend>Output format</legend>
      {formats.map((format) => (
        <div className="choice" key={format.value}>
          <input
            type="radio"
            name={`${id}-format`}
            id={`${id}-${format.value}`}
            checked={current === format.value}
            aria-describedby={`${id}-${format.value}-about`}
            onChange={() => setParam("format", format.value)}
          />
          <label htmlFor={`${id}-${format.value}`}>{format.label}</label>
          <small className="hint" id={`${id}-${format.value}-about`}>
            {format.about}
          </small>
        </div>
      ))}
    </fieldset>
  );
}

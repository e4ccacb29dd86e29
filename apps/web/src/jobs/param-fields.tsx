// Inputs for job parameters: numbers, switches and choices, each labelled and showing its default.
import { useId } from "react";

export function NumberParam(props: {
  label: string;
  value: unknown;
  defaultValue?: number;
  min?: number;
  max?: number;
  step?: number;
  unit?: string;
  /** What the number means, read by screen readers with the field. */
  hint?: string;
  /** What is wrong with the value, shown as it is typed (the field's allowed range). */
  error?: string;
  onChange(value: number | undefined): void;
}) {
  const id = useId();
  const shown = typeof props.value === "number" ? String(props.value) : "";
  const described = [props.hint && `${id}-hint`, props.error && `${id}-error`].filter(Boolean).join(" ");
  return (
    <div className="field">
      <label htmlFor={id}>
        {props.label}
        {props.unit && ` (${props.unit})`}
      </label>
      <input
        id={id}
        type="number"
        inputMode="decimal"
        min={props.min}
        max={props.max}
        step={props.step ?? "any"}
        value={shown}
        placeholder={props.defaultValue === undefined ? "" : String(props.defaultValue)}
        aria-invalid={props.error ? true : undefined}
        aria-describedby={described || undefined}
        onChange={(e) => props.onChange(e.target.value === "" ? undefined : Number(e.target.value))}
      />
      {props.hint && (
        <small className="hint" id={`${id}-hint`}>
          {props.hint}
        </small>
      )}
      {props.error && (
        <p className="field-error" id={`${id}-error`}>
          {props.error}
        </p>
      )}
      {props.defaultValue !== undefined && <small className="hint">Default: {props.defaultValue}</small>}
    </div>
  );
}

export function SwitchParam(props: { label: string; checked: boolean; hint?: string; onChange(v: boolean): void }) {
  const id = useId();
  return (
    <div className="field switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        aria-checked={props.checked}
        checked={props.checked}
        onChange={(e) => props.onChange(e.target.checked)}
      />
      <label htmlFor={id}>{props.label}</label>
      {props.hint && <small className="hint">{props.hint}</small>}
    </div>
  );
}

export function ChoiceParam<T extends string>(props: {
  label: string;
  value: T;
  options: { value: T; label: string }[];
  onChange(value: T): void;
}) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <select id={id} value={props.value} onChange={(e) => props.onChange(e.target.value as T)}>
        {props.options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

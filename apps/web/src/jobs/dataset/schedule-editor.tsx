// The attack schedule of a dataset job (labels.schedule): a time zone (the browser's by default) and rows of windows
// (class, start, end, attackers, victims, ports), or a schedule pasted as YAML or JSON, as docs/datasets.md writes it.
import type { LabelSchedule } from "@tracemill/contracts";
import { useId, useMemo, useState } from "react";
import type { StepProps } from "../step-props.js";
import type { DatasetProblems } from "./dataset-checks.js";
import { browserTimeZone, emptyRow, rowOf, scheduleFromText, type WindowRow, windowOf } from "./schedule-rows.js";

type Labels = Record<string, unknown> & { schedule?: LabelSchedule };

const COLUMNS: { key: Exclude<keyof WindowRow, "extra">; label: string; placeholder: string }[] = [
  { key: "class", label: "Class", placeholder: "FTP-Patator" },
  { key: "start", label: "Start", placeholder: "2017-07-04 09:20" },
  { key: "end", label: "End", placeholder: "2017-07-04 10:20" },
  { key: "attackers", label: "Attackers", placeholder: "172.16.0.1" },
  { key: "victims", label: "Victims", placeholder: "192.168.10.50" },
  { key: "ports", label: "Ports", placeholder: "any" },
];

function zoneNames(): string[] {
  try {
    return Intl.supportedValuesOf("timeZone");
  } catch {
    return [];
  }
}

export function ScheduleEditor({ draft, setParam, problems }: StepProps & { problems: DatasetProblems }) {
  const id = useId();
  const labels = (draft.params.labels ?? {}) as Labels;
  const [rows, setRows] = useState<WindowRow[]>(() => (labels.schedule?.windows ?? []).map(rowOf));
  const [zone, setZone] = useState(labels.schedule?.timezone ?? browserTimeZone());
  const [pasted, setPasted] = useState("");
  const [pasteProblem, setPasteProblem] = useState<string>();
  const zones = useMemo(zoneNames, []);

  function commit(nextRows: WindowRow[], nextZone: string) {
    setRows(nextRows);
    setZone(nextZone);
    const schedule = nextRows.length > 0 ? { timezone: nextZone.trim(), windows: nextRows.map(windowOf) } : undefined;
    setParam("labels", { ...labels, schedule });
  }

  const setCell = (index: number, key: keyof WindowRow, value: string) =>
    commit(
      rows.map((row, i) => (i === index ? { ...row, [key]: value } : row)),
      zone,
    );

  async function takePasted() {
    const schedule = await scheduleFromText(pasted);
    if (typeof schedule === "string") return setPasteProblem(schedule);
    setPasteProblem(undefined);
    commit(schedule.windows.map(rowOf), schedule.timezone);
  }

  const zoneError = rows.length > 0 ? problems["labels.schedule.timezone"] : undefined;
  return (
    <fieldset className="schedule-editor">
      <legend>Attack schedule (optional)</legend>
      <p className="hint">
        When and between whom each attack ran: a session between a window's attackers and victims (on its ports) that
        overlaps the window gets its class. Times are read in the schedule's time zone.
      </p>
      <div className="field">
        <label htmlFor={`${id}-zone`}>Time zone of the schedule</label>
        <input
          id={`${id}-zone`}
          list={`${id}-zones`}
          value={zone}
          aria-invalid={zoneError ? true : undefined}
          aria-describedby={zoneError ? `${id}-zone-error` : undefined}
          onChange={(e) => commit(rows, e.target.value)}
        />
        <datalist id={`${id}-zones`}>
          {zones.map((name) => (
            <option key={name} value={name} />
          ))}
        </datalist>
        {zoneError && (
          <p className="field-error" id={`${id}-zone-error`}>
            {zoneError}
          </p>
        )}
      </div>
      {rows.length > 0 && (
        <div className="table-scroll">
          <table className="schedule-table">
            <thead>
              <tr>
                <th scope="col">#</th>
                {COLUMNS.map((column) => (
                  <th key={column.key} scope="col">
                    {column.label}
                  </th>
                ))}
                <th scope="col">
                  <span className="visually-hidden">Remove</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {rows.map((row, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: windows are edited in place, by position
                <tr key={index}>
                  <td>{index + 1}</td>
                  {COLUMNS.map((column) => {
                    const error = problems[`labels.schedule.windows.${index}.${column.key}`];
                    const cell = `${id}-${index}-${column.key}`;
                    return (
                      <td key={column.key} className={`window-${column.key}`}>
                        <input
                          id={cell}
                          aria-label={`Window ${index + 1}: ${column.label.toLowerCase()}`}
                          placeholder={column.placeholder}
                          value={row[column.key]}
                          aria-invalid={error ? true : undefined}
                          aria-describedby={error ? `${cell}-error` : undefined}
                          onChange={(e) => setCell(index, column.key, e.target.value)}
                        />
                        {error && (
                          <p className="field-error" id={`${cell}-error`}>
                            {error}
                          </p>
                        )}
                      </td>
                    );
                  })}
                  <td>
                    <button
                      type="button"
                      className="link-button"
                      aria-label={`Remove window ${index + 1}`}
                      onClick={() =>
                        commit(
                          rows.filter((_, i) => i !== index),
                          zone,
                        )
                      }
                    >
                      Remove
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <p>
        <button type="button" onClick={() => commit([...rows, emptyRow()], zone)}>
          Add a window
        </button>
      </p>
      <details className="paste-schedule">
        <summary>Paste a schedule (YAML or JSON)</summary>
        <div className="field">
          <label htmlFor={`${id}-paste`}>Schedule as YAML or JSON (labels.schedule: timezone and windows)</label>
          <textarea id={`${id}-paste`} rows={8} value={pasted} onChange={(e) => setPasted(e.target.value)} />
        </div>
        <button type="button" onClick={() => void takePasted()} disabled={pasted.trim() === ""}>
          Use this schedule
        </button>
        {pasteProblem && (
          <p className="field-error" role="alert">
            {pasteProblem}
          </p>
        )}
      </details>
    </fieldset>
  );
}

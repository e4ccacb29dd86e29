// The dataset wizard's own steps (capability-forms.tsx lists them): the labelling sources, the schedule, the split and
// the leakage audit, each field checked as it is typed (dataset-checks.ts).
import {
  DEFAULT_SPLITS,
  datasetParams,
  labelSources,
  MAX_DATASET_ALERTS,
  MAX_DATASET_ATTACKS,
  type SplitMethodName,
} from "@tracemill/contracts";
import { useId } from "react";
import { FlowParams } from "../capability-steps.js";
import type { Draft } from "../draft.js";
import { FilePicker, type PickedFile } from "../file-picker.js";
import { ChoiceParam, NumberParam, SwitchParam } from "../param-fields.js";
import type { StepProps } from "../step-props.js";
import { datasetProblems } from "./dataset-checks.js";
import { FileList } from "./file-list.js";
import { ScheduleEditor } from "./schedule-editor.js";

type Section = Record<string, unknown>;
const defaults = datasetParams.parse({});

const section = (draft: Draft, name: "labels" | "split" | "audit") => (draft.params[name] ?? {}) as Section;
/** Changes fields of one section (labels, split, audit) of the parameters. */
const patch = (props: StepProps, name: "labels" | "split" | "audit", fields: Section) =>
  props.setParam(name, { ...section(props.draft, name), ...fields });

/** An attack capture's class at first: its file name without the extension ("PortScan.pcap" → "PortScan"). */
export const classOfName = (name: string) =>
  (name.split(" / ").pop() ?? name)
    .replace(/(\.gz)?$/i, "")
    .replace(/\.[^.]*$/, "")
    .slice(0, 100) || "attack";

export function LabelSourcesStep(props: StepProps) {
  const { draft, setList, setInput } = props;
  const labels = section(draft, "labels");
  const classes = (labels.attackClasses as string[] | undefined) ?? [];
  const attacks = draft.lists.attacks ?? [];
  const alerts = draft.lists.alerts ?? [];
  const problems = datasetProblems(draft.params);
  const id = useId();
  return (
    <>
      <p>
        Label the sessions from any of these sources; a session none of them matches is benign. A capture that is an
        aggregation job's output is labelled exactly from its provenance record.
      </p>
      <fieldset>
        <legend>Attack captures</legend>
        <FileList
          label="Attack captures"
          one="Attack capture"
          kind="capture"
          max={MAX_DATASET_ATTACKS}
          value={attacks}
          onAdd={(picked: PickedFile) => {
            setList("attacks", [...attacks, picked]);
            patch(props, "labels", { attackClasses: [...classes, classOfName(picked.name)] });
          }}
          onRemove={(index) => {
            setList(
              "attacks",
              attacks.filter((_, i) => i !== index),
            );
            patch(props, "labels", { attackClasses: classes.filter((_, i) => i !== index) });
          }}
          rowExtra={(index) => {
            const error = problems[`labels.attackClasses.${index}`];
            return (
              <span className="inline-field">
                <label htmlFor={`${id}-class-${index}`}>
                  class<span className="visually-hidden"> of {attacks[index]?.name}</span>
                </label>
                <input
                  id={`${id}-class-${index}`}
                  value={classes[index] ?? ""}
                  aria-invalid={error ? true : undefined}
                  aria-describedby={error ? `${id}-class-${index}-error` : undefined}
                  onChange={(e) =>
                    patch(props, "labels", {
                      attackClasses: classes.map((c, i) => (i === index ? e.target.value : c)),
                    })
                  }
                />
                {error && (
                  <span className="field-error" id={`${id}-class-${index}-error`}>
                    {error}
                  </span>
                )}
              </span>
            );
          }}
        />
        <small className="hint">A session whose 5-tuple occurs in an attack capture gets that capture's class.</small>
      </fieldset>
      <fieldset>
        <legend>IDS alerts</legend>
        <FileList
          label="Alert files"
          one="Alert file (unified2 or EVE)"
          kind="alerts"
          max={MAX_DATASET_ALERTS}
          value={alerts}
          onAdd={(picked) => setList("alerts", [...alerts, picked])}
          onRemove={(index) =>
            setList(
              "alerts",
              alerts.filter((_, i) => i !== index),
            )
          }
        />
        {alerts.length > 0 && (
          <>
            <FilePicker
              label="Classification file (optional; default: Suricata's)"
              kind="classification"
              value={draft.inputs.classification}
              onChange={(v) => setInput("classification", v)}
            />
            <NumberParam
              label="Keep alerts of priority 1 to N (1 = most severe; empty: all)"
              min={1}
              step={1}
              value={labels.maxPriority}
              error={problems["labels.maxPriority"]}
              onChange={(v) => patch(props, "labels", { maxPriority: v })}
            />
          </>
        )}
      </fieldset>
      <SwitchParam
        label="Label a merge's output from its provenance record (exact, packet by packet)"
        checked={labels.provenance !== false}
        onChange={(v) => patch(props, "labels", { provenance: v })}
      />
    </>
  );
}

export function ScheduleStep(props: StepProps) {
  return <ScheduleEditor {...props} problems={datasetProblems(props.draft.params)} />;
}

const METHODS: { value: SplitMethodName; label: string }[] = [
  { value: "random", label: "Stratified random, session by session" },
  { value: "time", label: "By time: train before test" },
  { value: "host", label: "By host: no address in two splits" },
  { value: "campaign", label: "By attack campaign (schedule window or attack capture)" },
];

export function SplitStep(props: StepProps) {
  const { draft } = props;
  const split = section(draft, "split");
  const splits = (split.splits as { name: string; fraction: unknown }[] | undefined) ?? DEFAULT_SPLITS;
  const problems = datasetProblems(draft.params);
  const id = useId();
  const setSplits = (next: { name: string; fraction: unknown }[]) => patch(props, "split", { splits: next });
  return (
    <>
      <ChoiceParam
        label="Split method"
        value={(split.method as SplitMethodName | undefined) ?? defaults.split.method}
        options={METHODS}
        onChange={(method) => patch(props, "split", { method })}
      />
      {split.method === "host" && (
        <ChoiceParam
          label="A host is"
          value={(split.hostKey as "both" | "source" | undefined) ?? "both"}
          options={[
            { value: "both", label: "Either end of a session (both addresses)" },
            { value: "source", label: "The session's source address" },
          ]}
          onChange={(hostKey) => patch(props, "split", { hostKey })}
        />
      )}
      <fieldset>
        <legend>Splits and their fractions</legend>
        <table className="splits-table">
          <thead>
            <tr>
              <th scope="col">Split</th>
              <th scope="col">Fraction</th>
              <th scope="col">
                <span className="visually-hidden">Remove</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {splits.map((entry, index) => {
              const nameError = problems[`split.splits.${index}.name`];
              const fractionError = problems[`split.splits.${index}.fraction`];
              const cell = `${id}-${index}`;
              return (
                // biome-ignore lint/suspicious/noArrayIndexKey: splits are edited in place, by position
                <tr key={index}>
                  <td>
                    <input
                      aria-label={`Split ${index + 1}: name`}
                      value={entry.name}
                      aria-invalid={nameError ? true : undefined}
                      aria-describedby={nameError ? `${cell}-name-error` : undefined}
                      onChange={(e) =>
                        setSplits(splits.map((s, i) => (i === index ? { ...s, name: e.target.value } : s)))
                      }
                    />
                    {nameError && (
                      <p className="field-error" id={`${cell}-name-error`}>
                        {nameError}
                      </p>
                    )}
                  </td>
                  <td>
                    <input
                      type="number"
                      inputMode="decimal"
                      min={0}
                      max={1}
                      step="any"
                      aria-label={`Split ${index + 1}: fraction`}
                      value={typeof entry.fraction === "number" ? String(entry.fraction) : ""}
                      aria-invalid={fractionError ? true : undefined}
                      aria-describedby={fractionError ? `${cell}-fraction-error` : undefined}
                      onChange={(e) =>
                        setSplits(
                          splits.map((s, i) =>
                            i === index
                              ? { ...s, fraction: e.target.value === "" ? undefined : Number(e.target.value) }
                              : s,
                          ),
                        )
                      }
                    />
                    {fractionError && (
                      <p className="field-error" id={`${cell}-fraction-error`}>
                        {fractionError}
                      </p>
                    )}
                  </td>
                  <td>
                    {splits.length > 2 && (
                      <button
                        type="button"
                        className="link-button"
                        aria-label={`Remove split ${entry.name || index + 1}`}
                        onClick={() => setSplits(splits.filter((_, i) => i !== index))}
                      >
                        Remove
                      </button>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
        {problems["split.splits"] && (
          <p className="field-error" role="status">
            {problems["split.splits"]}
          </p>
        )}
        {splits.length < 8 && (
          <button type="button" onClick={() => setSplits([...splits, { name: "", fraction: undefined }])}>
            Add a split
          </button>
        )}
      </fieldset>
      <NumberParam
        label="Seed (the same seed gives the same split)"
        min={0}
        step={1}
        value={split.seed}
        defaultValue={defaults.split.seed}
        error={problems["split.seed"]}
        onChange={(seed) => patch(props, "split", { seed })}
      />
    </>
  );
}

export function AuditStep(props: StepProps) {
  const audit = section(props.draft, "audit");
  const problems = datasetProblems(props.draft.params);
  return (
    <>
      <p>
        Each column alone is trained on the train split as a small decision tree and scored on the test split: a column
        that alone separates the classes is flagged (so are addresses, ports and times, by name).
      </p>
      <ChoiceParam
        label="Depth of each column's tree"
        value={String(audit.depth ?? defaults.audit.depth) as "1" | "2"}
        options={[
          { value: "1", label: "1 (one threshold)" },
          { value: "2", label: "2 (default)" },
        ]}
        onChange={(depth) => patch(props, "audit", { depth: Number(depth) })}
      />
      <NumberParam
        label="Flag a column whose balanced accuracy reaches"
        min={0}
        max={1}
        value={audit.threshold}
        defaultValue={defaults.audit.threshold}
        error={problems["audit.threshold"]}
        onChange={(threshold) => patch(props, "audit", { threshold })}
      />
      <SwitchParam
        label="Also write each split without the flagged columns"
        checked={audit.dropFlagged === true}
        onChange={(dropFlagged) => patch(props, "audit", { dropFlagged })}
      />
    </>
  );
}

export function DatasetAdvanced(props: StepProps) {
  const { draft } = props;
  const labels = section(draft, "labels");
  const audit = section(draft, "audit");
  const problems = datasetProblems(draft.params);
  const precedence = (labels.precedence as string[] | undefined) ?? [...labelSources];
  return (
    <>
      <FlowParams {...props} capability="dataset" />
      <NumberParam
        label="Rows of each split the audit reads at most"
        min={1000}
        max={10_000_000}
        step={1}
        value={audit.sampleRows}
        defaultValue={defaults.audit.sampleRows}
        error={problems["audit.sampleRows"]}
        onChange={(sampleRows) => patch(props, "audit", { sampleRows })}
      />
      <NumberParam
        label="Alerts: seconds an alert may lie outside its session"
        unit="s"
        min={0}
        max={3600}
        value={labels.tolerance}
        error={problems["labels.tolerance"]}
        onChange={(tolerance) => patch(props, "labels", { tolerance })}
      />
      <fieldset>
        <legend>Order of precedence of the label sources (first wins)</legend>
        <ol className="precedence">
          {precedence.map((source, index) => (
            <li key={source}>
              {source}{" "}
              {index > 0 && (
                <button
                  type="button"
                  className="link-button"
                  aria-label={`Move ${source} up`}
                  onClick={() => {
                    const next = [...precedence];
                    [next[index - 1], next[index]] = [next[index], next[index - 1]];
                    patch(props, "labels", { precedence: next });
                  }}
                >
                  Up
                </button>
              )}
            </li>
          ))}
        </ol>
      </fieldset>
    </>
  );
}

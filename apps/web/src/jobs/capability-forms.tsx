// What each capability's creation screen asks after step 1: its own steps and its advanced parameters.

import type { Capability, InputRole } from "@tracemill/contracts";
import type { ReactNode } from "react";
import { FlowParams, fromMerge, LabelModeStep, RulesetStep } from "./capability-steps.js";
import { datasetProblems, firstProblem } from "./dataset/dataset-checks.js";
import { AuditStep, DatasetAdvanced, LabelSourcesStep, ScheduleStep, SplitStep } from "./dataset/dataset-steps.js";
import { type Draft, defaultParams } from "./draft.js";
import { FeatureSetChoice, missingFeatureSet } from "./feature-set-choice.js";
import { FilePicker } from "./file-picker.js";
import { OutputFormatChoice } from "./output-format-choice.js";
import { NumberParam, SwitchParam } from "./param-fields.js";
import type { StepProps } from "./step-props.js";

export interface FormStep {
  title: string;
  render(props: StepProps): ReactNode;
  /** What still has to be set before Next, or undefined. */
  missing(draft: Draft): string | undefined;
  /** The input roles whose files this step picks (step 1 picks the main role's): a failed upload returns here. */
  roles?: InputRole[];
}

export interface CapabilityForm {
  capability: Capability;
  /** The role and label of the file asked on step 1. */
  mainRole: InputRole;
  mainLabel: string;
  intro: string;
  steps: FormStep[];
  advanced(props: StepProps): ReactNode;
}

const noMissing = () => undefined;
const flowAdvanced = (capability: Capability) => (props: StepProps) => (
  <FlowParams {...props} capability={capability} />
);
/** A session capability's step: its own fields, then the feature sets, on the page with the session options. */
const flowStep = (step: FormStep): FormStep => ({
  title: step.title,
  render: (props) => (
    <>
      {step.render(props)}
      <FeatureSetChoice {...props} />
    </>
  ),
  missing: (draft) => step.missing(draft) ?? missingFeatureSet(draft),
  roles: step.roles,
});

export const capabilityForms: Record<Capability, CapabilityForm> = {
  extract: {
    capability: "extract",
    mainRole: "capture",
    mainLabel: "Capture",
    intro:
      "Computes the session features of every TCP and UDP session of a capture, as one row per session (CSV or Parquet).",
    steps: [
      flowStep({
        title: "Parameters",
        render: (props) => (
          <>
            <p>The defaults suit most captures.</p>
            <OutputFormatChoice {...props} />
          </>
        ),
        missing: noMissing,
      }),
    ],
    advanced: flowAdvanced("extract"),
  },
  sanitize: {
    capability: "sanitize",
    mainRole: "capture",
    mainLabel: "Capture to sanitize",
    intro:
      "Scans a capture with Suricata and splits it into an attack-free capture and a capture of the attack samples, with the alerts.",
    steps: [
      {
        title: "Ruleset",
        render: (p) => <RulesetStep {...p} />,
        missing: noMissing,
        roles: ["rules", "classification"],
      },
    ],
    advanced: ({ draft, setParam }) => (
      <NumberParam
        label="Keep alerts of priority 1 to N (1 = most severe)"
        hint="Suricata's priority 1 is the most severe. A session goes to the attack capture when one of its alerts has a priority from 1 to N; a larger N keeps more alerts."
        min={1}
        max={255}
        step={1}
        value={draft.params.minSeverity}
        defaultValue={defaultParams("sanitize").minSeverity as number}
        onChange={(v) => setParam("minSeverity", v)}
      />
    ),
  },
  merge: {
    capability: "merge",
    mainRole: "background",
    mainLabel: "Background capture (attack-free)",
    intro: "Replays an attack capture into an attack-free background capture, keeping timing and metadata.",
    steps: [
      {
        title: "Attack capture",
        render: ({ draft, setInput, setParam }) => (
          <>
            <FilePicker
              label="Attack capture"
              kind="capture"
              required
              value={draft.inputs.attacks}
              onChange={(v) => setInput("attacks", v)}
            />
            <NumberParam
              label="Insertion point: seconds after the background's first packet"
              unit="s"
              min={0}
              value={draft.params.at}
              onChange={(v) => setParam("at", v)}
            />
            <small className="hint">Default: the middle of the background capture.</small>
          </>
        ),
        missing: (d) => (d.inputs.attacks ? undefined : "Choose the attack capture"),
        roles: ["attacks"],
      },
    ],
    advanced: ({ draft, setParam }) => (
      <SwitchParam
        label="Sequential: append the attacks after the background instead of inserting them"
        checked={Boolean(draft.params.sequential)}
        onChange={(v) => setParam("sequential", v)}
      />
    ),
  },
  label: {
    capability: "label",
    mainRole: "capture",
    mainLabel: "Capture to label",
    intro:
      "Extracts the session features and labels each session: binary from a capture of the attacks, or multi-class from IDS alerts (CSV or Parquet).",
    steps: [
      flowStep({
        title: "Labelling",
        render: (p) => (
          <>
            <LabelModeStep {...p} />
            <OutputFormatChoice {...p} />
          </>
        ),
        missing: (d) =>
          d.params.mode === "multiclass"
            ? d.inputs.alerts
              ? undefined
              : "Choose the alert file"
            : d.inputs.attacks || fromMerge(d)
              ? undefined
              : "Choose the attack capture",
        roles: ["attacks", "alerts", "classification"],
      }),
    ],
    advanced: flowAdvanced("label"),
  },
  ipt: {
    capability: "ipt",
    mainRole: "capture",
    mainLabel: "Capture",
    intro: "Writes the inter-packet times of every session as a text file, plus the session features CSV.",
    steps: [
      flowStep({
        title: "Series",
        render: ({ draft, setParam }) => (
          <SwitchParam
            label="Signed times (negative for the backward direction)"
            checked={Boolean(draft.params.signed)}
            onChange={(v) => setParam("signed", v)}
          />
        ),
        missing: noMissing,
      }),
    ],
    advanced: flowAdvanced("ipt"),
  },
  images: {
    capability: "images",
    mainRole: "capture",
    mainLabel: "Capture",
    intro: "Draws the sessions as grayscale images of n × 280 pixels (zipped), plus the session features CSV.",
    steps: [
      flowStep({
        title: "Images",
        render: ({ draft, setParam }) => (
          <>
            <NumberParam
              label="Sessions (flows) per image"
              min={1}
              max={4096}
              step={1}
              value={draft.params.flowsPerImage}
              defaultValue={defaultParams("images").flowsPerImage as number}
              onChange={(v) => setParam("flowsPerImage", v)}
            />
            <SwitchParam
              label="Keep IP addresses in the image bytes"
              checked={Boolean(draft.params.keepAddresses)}
              onChange={(v) => setParam("keepAddresses", v)}
            />
          </>
        ),
        missing: (d) =>
          typeof d.params.flowsPerImage === "number" && d.params.flowsPerImage >= 1
            ? undefined
            : "Set the number of sessions per image",
      }),
    ],
    advanced: flowAdvanced("images"),
  },
  dataset: {
    capability: "dataset",
    mainRole: "capture",
    mainLabel: "Capture",
    intro:
      "Builds a labelled dataset from several captures in one run: features, labels with their provenance, train and test splits without leakage, a leakage audit and the dataset's card (Parquet).",
    steps: [
      {
        title: "Labels",
        render: (p) => <LabelSourcesStep {...p} />,
        missing: (d) => firstProblem(datasetProblems(d.params), "labels.attackClasses", "labels.maxPriority"),
        roles: ["attacks", "alerts", "classification"],
      },
      {
        title: "Schedule",
        render: (p) => <ScheduleStep {...p} />,
        missing: (d) => firstProblem(datasetProblems(d.params), "labels.schedule"),
      },
      flowStep({
        title: "Split",
        render: (p) => <SplitStep {...p} />,
        missing: (d) => firstProblem(datasetProblems(d.params), "split"),
      }),
      {
        title: "Audit",
        render: (p) => <AuditStep {...p} />,
        missing: (d) =>
          firstProblem(datasetProblems(d.params), "audit", "labels", "idleTimeout", "activeTimeout", "splt"),
      },
    ],
    advanced: (props) => <DatasetAdvanced {...props} />,
  },
};

// What each capability's creation screen asks after step 1: its own steps and its advanced parameters.

import { useQuery } from "@tanstack/react-query";
import type { Capability, InputRole } from "@tracemill/contracts";
import { type ReactNode, useEffect } from "react";
import { api } from "../api/client.js";
import { type Draft, defaultParams } from "./draft.js";
import { FilePicker, type PickedFile } from "./file-picker.js";
import { ChoiceParam, NumberParam, SwitchParam } from "./param-fields.js";

export interface StepProps {
  draft: Draft;
  setInput(role: InputRole, picked: PickedFile | undefined): void;
  setParam(name: string, value: unknown): void;
}

export interface FormStep {
  title: string;
  render(props: StepProps): ReactNode;
  /** What still has to be set before Next, or undefined. */
  missing(draft: Draft): string | undefined;
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

function FlowParams({ draft, setParam, capability }: StepProps & { capability: Capability }) {
  const defaults = defaultParams(capability);
  return (
    <>
      <NumberParam
        label="Idle timeout"
        unit="s"
        min={0}
        value={draft.params.idleTimeout}
        defaultValue={defaults.idleTimeout as number}
        onChange={(v) => setParam("idleTimeout", v)}
      />
      <NumberParam
        label="Active timeout"
        unit="s"
        min={0}
        value={draft.params.activeTimeout}
        defaultValue={defaults.activeTimeout as number}
        onChange={(v) => setParam("activeTimeout", v)}
      />
      <ChoiceParam
        label="Packet length measured as"
        value={(draft.params.length as "ip" | "frame") ?? "ip"}
        options={[
          { value: "ip", label: "IP length (default)" },
          { value: "frame", label: "Frame length" },
        ]}
        onChange={(v) => setParam("length", v)}
      />
    </>
  );
}

const noMissing = () => undefined;
const flowAdvanced = (capability: Capability) => (props: StepProps) => (
  <FlowParams {...props} capability={capability} />
);

function RulesetStep({ draft, setParam, setInput }: StepProps) {
  const rulesets = useQuery({ queryKey: ["rulesets"], queryFn: api.rulesets, retry: false });
  const current = String(draft.params.ruleset ?? "");
  const ids = rulesets.data?.map((r) => r.id) ?? [];
  // The contracts' default name may not exist on this server: fall back to the first ruleset it offers.
  const fallback = ids.length > 0 && !ids.includes(current) ? ids[0] : undefined;
  useEffect(() => {
    if (fallback) setParam("ruleset", fallback);
  }, [fallback, setParam]);
  const options = rulesets.data?.length
    ? rulesets.data.map((r) => ({ value: r.id, label: r.description ? `${r.name} — ${r.description}` : r.name }))
    : [{ value: "default", label: "Default (the bundled rules)" }];
  return (
    <>
      <ChoiceParam
        label="Ruleset"
        value={String(draft.params.ruleset ?? "default")}
        options={options}
        onChange={(v) => setParam("ruleset", v)}
      />
      <FilePicker
        label="Your own rules (optional, used instead of the ruleset)"
        kind="rules"
        value={draft.inputs.rules}
        onChange={(v) => setInput("rules", v)}
      />
      <FilePicker
        label="Classification file for your rules (optional)"
        kind="classification"
        value={draft.inputs.classification}
        onChange={(v) => setInput("classification", v)}
      />
    </>
  );
}

/** The capture to label is an aggregation job's output: its provenance labels it, no attack capture needed. */
const fromMerge = (draft: Draft) => draft.inputs.capture?.fromCapability === "merge";

function LabelModeStep({ draft, setParam, setInput }: StepProps) {
  const mode = (draft.params.mode as "binary" | "multiclass") ?? "binary";
  return (
    <>
      <fieldset className="radio-group">
        <legend>Labelling</legend>
        <label>
          <input type="radio" name="mode" checked={mode === "binary"} onChange={() => setParam("mode", "binary")} />
          Binary (0 normal, 1 attack) from a capture of the attacks
        </label>
        <label>
          <input
            type="radio"
            name="mode"
            checked={mode === "multiclass"}
            onChange={() => setParam("mode", "multiclass")}
          />
          Multi-class (Classify) from IDS alerts
        </label>
      </fieldset>
      {mode === "binary" ? (
        <>
          <FilePicker
            label="Attack capture"
            kind="capture"
            required={!fromMerge(draft)}
            value={draft.inputs.attacks}
            onChange={(v) => setInput("attacks", v)}
          />
          <small className="hint">
            {fromMerge(draft)
              ? "Optional: this capture is an aggregation job's output, whose provenance record labels every packet exactly."
              : "When the capture is the output of an aggregation job, its provenance record labels every packet exactly; choose the attack capture that was merged into it."}
          </small>
        </>
      ) : (
        <>
          <FilePicker
            label="Alerts (unified2 or EVE file)"
            kind="alerts"
            required
            value={draft.inputs.alerts}
            onChange={(v) => setInput("alerts", v)}
          />
          <FilePicker
            label="Classification file (optional)"
            kind="classification"
            value={draft.inputs.classification}
            onChange={(v) => setInput("classification", v)}
          />
        </>
      )}
    </>
  );
}

export const capabilityForms: Record<Capability, CapabilityForm> = {
  extract: {
    capability: "extract",
    mainRole: "capture",
    mainLabel: "Capture",
    intro: "Computes the session features of every TCP and UDP session of a capture, as one CSV row per session.",
    steps: [{ title: "Parameters", render: () => <p>The defaults suit most captures.</p>, missing: noMissing }],
    advanced: flowAdvanced("extract"),
  },
  sanitize: {
    capability: "sanitize",
    mainRole: "capture",
    mainLabel: "Capture to sanitize",
    intro:
      "Scans a capture with Suricata and splits it into an attack-free capture and a capture of the attack samples, with the alerts.",
    steps: [{ title: "Ruleset", render: (p) => <RulesetStep {...p} />, missing: noMissing }],
    advanced: ({ draft, setParam }) => (
      <NumberParam
        label="Minimum alert severity (priority)"
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
      "Extracts the session features and labels each session: binary from a capture of the attacks, or multi-class from IDS alerts.",
    steps: [
      {
        title: "Labelling",
        render: (p) => <LabelModeStep {...p} />,
        missing: (d) =>
          d.params.mode === "multiclass"
            ? d.inputs.alerts
              ? undefined
              : "Choose the alert file"
            : d.inputs.attacks || fromMerge(d)
              ? undefined
              : "Choose the attack capture",
      },
    ],
    advanced: flowAdvanced("label"),
  },
  ipt: {
    capability: "ipt",
    mainRole: "capture",
    mainLabel: "Capture",
    intro: "Writes the inter-packet times of every session as a text file, plus the session features CSV.",
    steps: [
      {
        title: "Series",
        render: ({ draft, setParam }) => (
          <SwitchParam
            label="Signed times (negative for the backward direction)"
            checked={Boolean(draft.params.signed)}
            onChange={(v) => setParam("signed", v)}
          />
        ),
        missing: noMissing,
      },
    ],
    advanced: flowAdvanced("ipt"),
  },
  images: {
    capability: "images",
    mainRole: "capture",
    mainLabel: "Capture",
    intro: "Draws the sessions as grayscale images of n × 280 pixels (zipped), plus the session features CSV.",
    steps: [
      {
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
      },
    ],
    advanced: flowAdvanced("images"),
  },
};

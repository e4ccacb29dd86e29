// The steps and parameter groups that several capabilities' creation screens share (capability-forms.tsx).

import { useQuery } from "@tanstack/react-query";
import type { Capability } from "@tracemill/contracts";
import { useEffect } from "react";
import { api } from "../api/client.js";
import { useFeatureSets } from "../api/feature-sets.js";
import { type Draft, defaultParams } from "./draft.js";
import { chosenNames, ownTimeoutsHint } from "./feature-set-choice.js";
import { FilePicker } from "./file-picker.js";
import { ChoiceParam, NumberParam } from "./param-fields.js";
import type { StepProps } from "./step-props.js";

const NFSTREAM = "nfstream";
/** nfstream's sequence length by default and at most (docs/features/nfstream.md, `splt` in the contracts). */
const DEFAULT_SPLT = 32;
const MAX_SPLT = 255;

export function FlowParams({ draft, setParam, capability }: StepProps & { capability: Capability }) {
  const defaults = defaultParams(capability);
  const sets = useFeatureSets();
  const names = chosenNames(draft);
  const ownTimeouts = ownTimeoutsHint(
    (sets.data ?? []).filter((set) => names.includes(set.name)),
    draft.params,
  );
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
      {ownTimeouts && <small className="hint">{ownTimeouts}</small>}
      {names.includes(NFSTREAM) && (
        // The one option a set has of its own: the length of nfstream's early-packet sequences.
        <NumberParam
          label="nfstream: packets in the early-packet sequences"
          min={0}
          max={MAX_SPLT}
          step={1}
          value={draft.params.splt}
          defaultValue={DEFAULT_SPLT}
          onChange={(v) => setParam("splt", v)}
        />
      )}
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

export function RulesetStep({ draft, setParam, setInput }: StepProps) {
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
export const fromMerge = (draft: Draft) =>
  draft.inputs.capture?.fromCapability === "merge" && draft.moreCaptures.length === 0;

export function LabelModeStep({ draft, setParam, setInput }: StepProps) {
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
            label="Classification file (optional; default: Suricata's)"
            kind="classification"
            value={draft.inputs.classification}
            onChange={(v) => setInput("classification", v)}
          />
        </>
      )}
    </>
  );
}

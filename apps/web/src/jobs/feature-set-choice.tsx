// The feature sets a session job computes (params.features), as the server lists them, and the timeouts a set
// brings when it is chosen alone (the server always takes a job's own timeouts, so the wizard fills them in).
import { type FeatureSetInfo, flowParams } from "@tracemill/contracts";
import { useId } from "react";
import { messagesOf } from "../api/client.js";
import { useFeatureSets } from "../api/feature-sets.js";
import type { Draft } from "./draft.js";
import type { StepProps } from "./step-props.js";

export const noFeatureSet = "Choose at least one feature set: a row carries the columns of the sets chosen.";

const sessionDefaults = flowParams.parse({});

/** The names the draft has chosen, in its order. */
export function chosenNames(draft: Draft): string[] {
  const features = draft.params.features;
  return Array.isArray(features) ? features.map(String) : [];
}

export const missingFeatureSet = (draft: Draft) => (chosenNames(draft).length > 0 ? undefined : noFeatureSet);

/** The set chosen alone when it has timeouts of its own, else undefined. */
function aloneWithTimeouts(chosen: readonly FeatureSetInfo[]): FeatureSetInfo | undefined {
  const [only] = chosen;
  const own = chosen.length === 1 ? only.defaults : {};
  return own.idleTimeout !== undefined || own.activeTimeout !== undefined ? only : undefined;
}

/** The timeouts a choice brings: the only set's own (as the CLI takes them), else the contracts' defaults. */
export function timeoutsFor(chosen: readonly FeatureSetInfo[]): { idleTimeout: number; activeTimeout: number } {
  const own = aloneWithTimeouts(chosen)?.defaults ?? {};
  return {
    idleTimeout: own.idleTimeout ?? sessionDefaults.idleTimeout,
    activeTimeout: own.activeTimeout ?? sessionDefaults.activeTimeout,
  };
}

/** The one-line hint under the timeout fields when a set chosen alone brings its own, else undefined. */
export function ownTimeoutsHint(
  chosen: readonly FeatureSetInfo[],
  params: Record<string, unknown>,
): string | undefined {
  const set = aloneWithTimeouts(chosen);
  if (!set) return undefined;
  const own = (["idleTimeout", "activeTimeout"] as const).flatMap((name) => {
    const value = set.defaults[name];
    return value === undefined
      ? []
      : [{ name, value, text: `${name === "idleTimeout" ? "idle" : "active"} ${value} s` }];
  });
  const figures = own.map((timeout) => timeout.text).join(", ");
  const followed = own.every((timeout) => params[timeout.name] === timeout.value);
  const [noun, pronoun] = own.length === 1 ? ["timeout", "it"] : ["timeouts", "them"];
  return followed
    ? `${set.name}'s own ${noun} (${figures}), as ${set.name} uses ${pronoun} when chosen alone.`
    : `${set.name} chosen alone uses ${figures}; the values you set are kept.`;
}

const plural = (count: number, word: string) => `${count} ${word}${count === 1 ? "" : "s"}`;

export function FeatureSetChoice({ draft, setParam, deriveParam }: StepProps) {
  const sets = useFeatureSets();
  const id = useId();
  const chosen = chosenNames(draft);
  if (sets.error) {
    return (
      <p className="field-error">
        The feature sets could not be listed ({messagesOf(sets.error).join("; ") || "no answer"}); the job computes{" "}
        {chosen.join(", ")}.
      </p>
    );
  }
  const offered = sets.data;
  if (!offered) return <p aria-busy="true">Loading the feature sets…</p>;

  function toggle(name: string, on: boolean) {
    // The server's order, whatever the order of the clicks: the columns follow the list the user reads.
    const next = (offered ?? []).filter((set) => (set.name === name ? on : chosen.includes(set.name)));
    setParam(
      "features",
      next.map((set) => set.name),
    );
    const timeouts = timeoutsFor(next);
    deriveParam("idleTimeout", timeouts.idleTimeout);
    deriveParam("activeTimeout", timeouts.activeTimeout);
  }

  return (
    <fieldset className="choice-list" aria-describedby={`${id}-about`}>
      <legend>Feature sets</legend>
      <small className="hint" id={`${id}-about`}>
        Each row starts with the session key, then the columns of every set chosen, in this order.
      </small>
      {offered.map((set, i) => (
        <div className="choice" key={set.name}>
          <input
            type="checkbox"
            id={`${id}-${i}`}
            checked={chosen.includes(set.name)}
            aria-describedby={`${id}-${i}-about`}
            onChange={(e) => toggle(set.name, e.target.checked)}
          />
          <label htmlFor={`${id}-${i}`}>{set.name}</label>
          <small className="hint" id={`${id}-${i}-about`}>
            {set.description} · {plural(set.columns.length, "column")}
          </small>
        </div>
      ))}
      <p className="field-error" aria-live="polite">
        {chosen.length === 0 ? noFeatureSet : ""}
      </p>
    </fieldset>
  );
}

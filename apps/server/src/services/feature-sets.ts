// The feature sets a job can choose, as the engine defines them: listed for clients, and a job's choice checked at
// creation (a name the engine does not know would only fail the job later).
import type { FeatureSetInfo } from "@tracemill/contracts";
import { FEATURE_SETS } from "@tracemill/core/features";
import { HttpError } from "./http-error.js";

/** Every set, in the engine's order, with its columns after the session key. */
export function featureSetList(): FeatureSetInfo[] {
  return FEATURE_SETS.map((set) => ({
    name: set.name,
    description: set.description,
    columns: set.groups.flatMap((group) => group.columns.map((column) => ({ name: column.name, type: column.type }))),
    defaults: { ...set.defaults },
  }));
}

/** 400 naming the first unknown set and the known ones. */
export function checkFeatureSets(names: readonly string[]): void {
  const known = FEATURE_SETS.map((set) => set.name);
  const unknown = names.find((name) => !known.includes(name));
  if (unknown !== undefined) {
    throw new HttpError(400, [
      `Invalid parameter features: no feature set "${unknown}" (there are ${known.join(", ")})`,
    ]);
  }
}

/** 400 unless CICFlowMeter's exact layout can be written: the cic set alone, by extract or label. */
export function checkCicCompat(capability: string, features: readonly string[]): void {
  if (capability !== "extract" && capability !== "label") {
    throw new HttpError(400, [
      "Invalid parameter cicCompat: only extraction and labelling write CICFlowMeter's layout",
    ]);
  }
  if (features.length !== 1 || features[0] !== "cic") {
    throw new HttpError(400, ['Invalid parameter cicCompat: it needs the feature set "cic" alone']);
  }
}

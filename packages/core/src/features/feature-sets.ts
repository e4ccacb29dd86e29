// Every feature set a run can choose, and the session key that starts every row: the one list the dispatch is
// generated from (feature-dispatch.test.ts).
import { TracemillError } from "../errors.js";
import type { FeatureSetDefinition } from "./feature-group.js";
import { endpoints } from "./groups/endpoints.js";
import { cic } from "./sets/cic.js";
import { CIC_COMPAT_KEY, cicCompat } from "./sets/cic-compat.js";
import { nfstream } from "./sets/nfstream.js";
import { tracemill } from "./sets/tracemill.js";

/** The columns that name a session, written once per row whichever sets a run chose, before theirs. */
export const SESSION_KEY: FeatureSetDefinition = {
  name: "key",
  description: "The session: protocol, start time, source and destination address and port",
  groups: [endpoints],
};

/** The sets, by name. */
export const FEATURE_SETS: readonly FeatureSetDefinition[] = [tracemill, cic, nfstream];

/**
 * The key and set a run takes through an option rather than by name: `--cic-compat`'s, in place of the session key
 * and the cic set. Listed for the generated dispatch.
 */
export const OPTION_SETS: readonly FeatureSetDefinition[] = [CIC_COMPAT_KEY, cicCompat];

/** The sets a run computes when it names none. */
export const DEFAULT_FEATURE_SETS: readonly FeatureSetDefinition[] = [tracemill];

/**
 * The sets named, in the order given, each once; BAD_OPTION naming an unknown name and the known ones. An empty list
 * is the default sets.
 */
export function featureSetsNamed(names: readonly string[]): readonly FeatureSetDefinition[] {
  if (names.length === 0) return DEFAULT_FEATURE_SETS;
  const chosen: FeatureSetDefinition[] = [];
  for (const name of names) {
    const set = FEATURE_SETS.find((candidate) => candidate.name === name);
    if (set === undefined) {
      const known = FEATURE_SETS.map((candidate) => candidate.name).join(", ");
      throw new TracemillError("BAD_OPTION", `unknown feature set "${name}" (known: ${known})`, { features: name });
    }
    if (!chosen.includes(set)) chosen.push(set);
  }
  return chosen;
}

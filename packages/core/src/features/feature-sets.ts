// Every feature set a run can choose, and the session key that starts every row: the one list the dispatch is
// generated from (feature-dispatch.test.ts).
import type { FeatureSetDefinition } from "./feature-group.js";
import { endpoints } from "./groups/endpoints.js";
import { tracemill } from "./sets/tracemill.js";

/** The columns that name a session, written once per row whichever sets a run chose, before theirs. */
export const SESSION_KEY: FeatureSetDefinition = {
  name: "key",
  description: "The session: protocol, start time, source and destination address and port",
  groups: [endpoints],
};

/** The sets, by name. */
export const FEATURE_SETS: readonly FeatureSetDefinition[] = [tracemill];

/** The sets a run computes when it names none. */
export const DEFAULT_FEATURE_SETS: readonly FeatureSetDefinition[] = [tracemill];

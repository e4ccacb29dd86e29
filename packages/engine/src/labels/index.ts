// Public surface of engine/labels, what labelling shares with the images capability: the label source (attack
// capture, alerts or a merge's provenance record) chosen and loaded, and the labeller that labels each session.
export {
  attackTuples,
  createLabeller,
  type LabelSourceOptions,
  labelOptionsForParts,
  labelSourceSummary,
  type PreparedLabeller,
  prepareAlerts,
  provenanceBeside,
} from "./create-labeller.js";
export { type AlertFormat, type LoadedAlerts, loadAlerts, loadClassification } from "./load-alerts.js";
export {
  type AlertLabellerFacts,
  alertFileSummary,
  isoMicroseconds,
  type LabelMethod,
  SessionEndpoints,
  type SessionLabel,
  type SessionLabeller,
  sessionAlert,
} from "./session-labeller.js";

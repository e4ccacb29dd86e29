// Which of a dataset's caveats make the job's result suspect (the warning outcome), from the card's `built` record.
// Every caveat stays in the card; only those that say the data is not what the spec meant warn: damaged inputs, an
// input or a dataset without sessions, one class, an alert file or attack capture that matched nothing, a split that
// missed its fraction or a class, and a feature (not an identifier) the audit flags by its score. Not warnings: label conflicts (the
// precedence decides, as documented), identifier columns (always flagged by name, so a warning would always show),
// and some alerts left unmatched (alert logs routinely hold alerts of traffic outside the captures).
import type { ResultWarning } from "./result-warning.js";

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const list = (value: unknown): Json[] => (Array.isArray(value) ? value.filter(isObject) : []);
const count = (value: unknown): number => (typeof value === "number" ? value : 0);

/** True for a dataset build's summary (its card's `built` record). */
export function isDatasetSummary(summary: Json): boolean {
  return Array.isArray(summary.caveats) && Array.isArray(summary.splits) && isObject(summary.audit);
}

export function datasetWarnings(built: Json): ResultWarning[] {
  const warnings: ResultWarning[] = [];
  for (const input of list(built.inputs)) {
    const name = String(input.name);
    if (input.complete === false) {
      const damage = isObject(input.damage) ? ` (${String(input.damage.message)})` : "";
      warnings.push({
        code: "input-damaged",
        message: `${name} is damaged${damage}: the dataset holds only its sessions before the damage.`,
      });
    }
    if (count(input.sessions) === 0) {
      warnings.push({ code: "no-sessions", message: `${name} contributed no session to the dataset.` });
    }
  }
  const classes = isObject(built.classes) ? built.classes : {};
  const present = Object.keys(classes).filter((name) => count(classes[name]) > 0);
  if (count(built.rows) > 0 && present.length === 1) {
    warnings.push({
      code: "single-class",
      message: `Every session of the dataset has one class (${present[0]}): nothing matched the labelling sources.`,
    });
  }
  warnings.push(
    ...unmatchedSources(isObject(built.labels) && isObject(built.labels.sources) ? built.labels.sources : {}),
  );
  for (const text of Array.isArray(built.splitWarnings) ? built.splitWarnings : []) {
    warnings.push({ code: "split-off-target", message: String(text) });
  }
  for (const split of list(built.splits)) {
    const byClass = isObject(split.byClass) ? split.byClass : {};
    const missing = present.filter((name) => count(byClass[name]) === 0);
    if (present.length > 1 && missing.length > 0) {
      warnings.push({
        code: "class-missing-from-split",
        message: `Split ${String(split.name)} has no session of class ${missing.join(", ")}: scores on it say nothing of ${missing.length === 1 ? "that class" : "those classes"}.`,
      });
    }
  }
  // Identifier columns are flagged by name whatever their score and dropped with them (--drop-flagged).
  const scored = list(isObject(built.audit) ? built.audit.rows : []).filter((row) => row.reason === "score");
  if (scored.length > 0) {
    const columns = scored.map((row) => String(row.column));
    warnings.push({
      code: "leaky-feature",
      message: `The leakage audit finds ${columns.length === 1 ? "a feature" : `${columns.length} features`} that alone separate the classes on the test split (${columns.join(", ")}): check they are not artefacts of the lab (TTL, window sizes, timing) before training on them.`,
    });
  }
  return warnings;
}

/** Label sources given that matched nothing at all. */
function unmatchedSources(sources: Json): ResultWarning[] {
  const warnings: ResultWarning[] = [];
  for (const file of list(isObject(sources.alerts) ? sources.alerts.files : [])) {
    if (count(file.alertsRead) > 0 && count(file.matchedAlerts) === 0) {
      warnings.push({
        code: "no-alerts-matched",
        message: `None of the ${count(file.alertsRead)} alerts of ${String(file.alertFile)} matched a session of the captures: are the alerts from these captures?`,
      });
    }
  }
  for (const capture of list(isObject(sources.tuples) ? sources.tuples.captures : [])) {
    const tuples = count(capture.tuples);
    if (tuples > 0 && count(capture.tuplesWithoutSession) === tuples) {
      warnings.push({
        code: "no-attacks-matched",
        message: `None of the conversations of the attack capture ${String(capture.capture)} matched a session of the captures.`,
      });
    }
  }
  return warnings;
}

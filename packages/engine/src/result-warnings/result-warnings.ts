// Warnings about a finished run whose result is suspect (damaged input, labels that match nothing, one class, no or
// only one-packet sessions, an attack capture that adds nothing), read from its summary alone. The CLI and the server
// both take them from here, so a job and a command say the same thing; docs/formats.md lists the codes.

import { datasetWarnings, isDatasetSummary } from "./dataset-warnings.js";
import type { ResultWarning } from "./result-warning.js";

export type { ResultWarning, ResultWarningCode } from "./result-warning.js";

/** The key under which a summary (and its summary.json) lists its warnings. */
export const RESULT_WARNINGS_KEY = "resultWarnings";

type Json = Record<string, unknown>;

const isObject = (value: unknown): value is Json =>
  typeof value === "object" && value !== null && !Array.isArray(value);
const numberAt = (value: unknown): number | undefined => (typeof value === "number" ? value : undefined);
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? "" : "s"}`;

/**
 * The warnings a run summary calls for, in a fixed order; [] for a result with nothing suspect. Any capability's
 * summary (or a combined one of several captures) is read by its shape: `sessions.total` for the session
 * capabilities, `labels` for labelled ones, `sessions.clean` for sanitize, `inputs.attacks` for merge, the card's
 * `built` record for a dataset (dataset-warnings.ts).
 */
export function resultWarnings(summary: Json): ResultWarning[] {
  if (isDatasetSummary(summary)) return datasetWarnings(summary);
  const warnings: ResultWarning[] = [];
  if (summary.complete === false) {
    warnings.push({
      code: "input-damaged",
      message: `The input is damaged (${damageText(summary.damage)}): the outputs hold only the packets before the damage.`,
    });
  }
  warnings.push(...sessionWarnings(summary));
  warnings.push(...labelWarnings(summary));
  warnings.push(...mergeWarnings(summary));
  return warnings;
}

/** The summary with its warnings listed under RESULT_WARNINGS_KEY (left out when there are none). */
export function withResultWarnings<T extends Json>(summary: T): T & { resultWarnings?: ResultWarning[] } {
  const warnings = resultWarnings(summary);
  const { [RESULT_WARNINGS_KEY]: _earlier, ...rest } = summary;
  return (warnings.length > 0 ? { ...rest, [RESULT_WARNINGS_KEY]: warnings } : rest) as T & {
    resultWarnings?: ResultWarning[];
  };
}

function damageText(damage: unknown): string {
  if (isObject(damage) && typeof damage.message === "string") return damage.message;
  // A job over several captures lists each damaged capture.
  if (Array.isArray(damage)) {
    const messages = damage.map((entry) => (isObject(entry) && isObject(entry.damage) ? entry.damage.message : null));
    const known = messages.filter((m): m is string => typeof m === "string");
    if (known.length > 0) return known.join("; ");
  }
  return "the capture ends in a damaged record";
}

function sessionWarnings(summary: Json): ResultWarning[] {
  const sessions = isObject(summary.sessions) ? summary.sessions : {};
  const packets = isObject(summary.packets) ? summary.packets : {};
  const total = numberAt(sessions.total);
  if (total !== undefined) {
    if (total === 0) return [{ code: "no-sessions", message: noSessions(numberAt(packets.read)) }];
    // Each decoded packet belongs to one session: as many sessions as packets means one packet each.
    if (numberAt(packets.decoded) === total) {
      return [
        {
          code: "single-packet-sessions",
          message: `Every session has a single packet (${plural(total, "session")}): durations, inter-arrival times and other per-session statistics carry no information.`,
        },
      ];
    }
    return [];
  }
  // Sanitize splits by session: clean and attack sessions.
  const clean = numberAt(sessions.clean);
  const attacks = numberAt(sessions.attacks);
  if (clean !== undefined && attacks !== undefined && clean + attacks === 0) {
    return [{ code: "no-sessions", message: noSessions(numberAt(packets.input)) }];
  }
  return [];
}

function noSessions(packetsRead: number | undefined): string {
  if (packetsRead === 0) return "No sessions: the capture holds no packets.";
  const read = packetsRead === undefined ? "" : ` (${plural(packetsRead, "packet")} read)`;
  return `No sessions: no packet of the capture is TCP or UDP over IP${read}, so the outputs hold no rows.`;
}

function labelWarnings(summary: Json): ResultWarning[] {
  if (!isObject(summary.labels)) return [];
  const labels = summary.labels;
  const total = numberAt(isObject(summary.sessions) ? summary.sessions.total : undefined);
  if (total === 0) return [];
  const bySession = isObject(labels.sessions) ? labels.sessions : {};
  const attackSessions = numberAt(bySession["1"]);
  if (labels.method === "alerts") {
    const read = numberAt(labels.alertsRead) ?? 0;
    if (read > 0 && numberAt(labels.matchedAlerts) === 0) {
      return [
        {
          code: "no-alerts-matched",
          message: `None of the ${plural(read, "alert")} read matched a session of the capture, so every session is labelled benign: are the alerts from this capture?`,
        },
      ];
    }
  } else if (labels.method === "tuples") {
    const tuples = numberAt(labels.attackTuples) ?? 0;
    if (tuples > 0 && numberAt(labels.attackTuplesWithoutSession) === tuples && attackSessions === 0) {
      const file = typeof labels.attackFile === "string" ? ` of ${labels.attackFile}` : "";
      return [
        {
          code: "no-attacks-matched",
          message: `None of the ${plural(tuples, "attack 5-tuple")}${file} matched a session of the capture, so every session is labelled 0: is it the attack capture merged into this one (addresses remapped?)`,
        },
      ];
    }
  } else if (labels.method === "provenance") {
    const injected = numberAt(labels.attackPacketsInProvenance) ?? 0;
    if (injected > 0 && attackSessions === 0) {
      return [
        {
          code: "no-attack-sessions",
          message: `The merge injected ${plural(injected, "attack packet")} but none of them is in a session, so every session is labelled 0.`,
        },
      ];
    }
  }
  return singleClass(labels);
}

/** Every session under one label: a dataset a classifier cannot learn to separate anything from. */
function singleClass(labels: Json): ResultWarning[] {
  const counts = isObject(labels.classes) ? labels.classes : isObject(labels.sessions) ? labels.sessions : null;
  if (counts === null) return [];
  const present = Object.entries(counts).filter(([, count]) => typeof count === "number" && count > 0);
  if (present.length !== 1) return [];
  const [name, count] = present[0] as [string, number];
  const label = isObject(labels.classes) ? `"${name}"` : name;
  return [
    {
      code: "single-class",
      message: `All ${plural(count, "session")} have the same label (${label}): the dataset has a single class.`,
    },
  ];
}

function mergeWarnings(summary: Json): ResultWarning[] {
  const inputs = isObject(summary.inputs) ? summary.inputs : {};
  const attacks = isObject(inputs.attacks) ? inputs.attacks : null;
  if (attacks === null || !isObject(inputs.background) || numberAt(attacks.packets) !== 0) return [];
  const file = typeof attacks.file === "string" ? `The attack capture ${attacks.file}` : "The attack capture";
  return [
    {
      code: "no-attack-packets",
      message: `${file} contributed no packets: the merged capture is the background alone.`,
    },
  ];
}

// A dataset job's parameters checked as the user types: the contracts' schema decides what is valid (the server
// checks the same), and each field says its allowed range in words; the schedule's times, zones and addresses are
// checked as the build will read them.
import { datasetParams, type ScheduleWindow } from "@tracemill/contracts";
import { addressesProblem, endsBeforeStart, portsProblem, timeProblem, timeZoneProblem } from "./schedule-rows.js";

/** Problems by field ("audit.threshold", "split.splits.1.fraction", "labels.schedule.windows.0.start"). */
export type DatasetProblems = Record<string, string>;

/** The allowed range of each field, by its last name in the path. */
const RANGES: Record<string, string> = {
  idleTimeout: "Above 0, at most 86400 seconds",
  activeTimeout: "Above 0, at most 8000000 seconds",
  splt: "A whole number from 1 to 256",
  fraction: "Above 0 and below 1",
  seed: "A whole number from 0 to 4294967295",
  threshold: "Above 0, at most 1",
  sampleRows: "A whole number from 1000 to 10000000",
  maxPriority: "A whole number, 1 or more",
  tolerance: "From 0 to 3600 seconds",
  class: "A class name of 1 to 100 characters",
  attackClasses: "A class name of 1 to 100 characters",
  name: "Lowercase letters, digits, - or _, starting with a letter (at most 32)",
};

const capitalised = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

export function datasetProblems(params: Record<string, unknown>): DatasetProblems {
  const problems: DatasetProblems = {};
  const add = (field: string, message: string) => {
    problems[field] ??= message;
  };
  const parsed = datasetParams.safeParse(params);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = issue.path.join(".");
      const named = [...issue.path].reverse().find((part) => typeof part === "string") as string | undefined;
      // A list's own rule (fractions adding up to 1, a name twice) says itself; a value says its field's range.
      const own = typeof issue.path.at(-1) === "string" && field.endsWith("splits");
      add(field, own ? splitsMessage(params, issue.message) : (RANGES[named ?? ""] ?? capitalised(issue.message)));
    }
  }
  const labels = (params.labels ?? {}) as { schedule?: { timezone?: string; windows?: ScheduleWindow[] } };
  const schedule = labels.schedule;
  if (schedule) {
    const zone = timeZoneProblem(schedule.timezone ?? "");
    if (zone) add("labels.schedule.timezone", zone);
    (schedule.windows ?? []).forEach((window, i) => {
      const at = `labels.schedule.windows.${i}`;
      if (!window.class) add(`${at}.class`, RANGES.class);
      const start = timeProblem(window.start ?? "");
      const end = timeProblem(window.end ?? "");
      if (start) add(`${at}.start`, start);
      if (end) add(`${at}.end`, end);
      if (!start && !end && endsBeforeStart(window.start, window.end)) add(`${at}.end`, "The end is before the start");
      const attackers = addressesProblem((window.attackers ?? []).join(" "));
      const victims = addressesProblem((window.victims ?? []).join(" "));
      if (attackers) add(`${at}.attackers`, attackers);
      if (victims) add(`${at}.victims`, victims);
      const ports = portsProblem((window.ports ?? []).join(" "));
      if (ports) add(`${at}.ports`, ports);
    });
  }
  return problems;
}

function splitsMessage(params: Record<string, unknown>, message: string): string {
  if (!message.includes("add up")) return capitalised(message);
  const splits = ((params.split as { splits?: { fraction?: unknown }[] })?.splits ?? []).map((s) => Number(s.fraction));
  const sum = splits.reduce((total, fraction) => total + (Number.isFinite(fraction) ? fraction : 0), 0);
  return `The fractions add up to ${Number(sum.toFixed(6))}; they must add up to 1`;
}

/** The problems under a field (a step's part of the form), first first, or undefined. */
export function firstProblem(problems: DatasetProblems, ...prefixes: string[]): string | undefined {
  const field = Object.keys(problems).find((key) => prefixes.some((prefix) => key.startsWith(prefix)));
  return field === undefined ? undefined : `${field}: ${problems[field]}`;
}

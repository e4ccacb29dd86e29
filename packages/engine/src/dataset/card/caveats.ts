// What a reader of the dataset must know before trusting it, one sentence each: damaged inputs, labels that matched
// nothing, conflicts, splits that missed their fractions, classes missing from a split, columns the audit flagged.
export interface CaveatFacts {
  inputs: { name: string; complete: boolean; damage: { offset: number; message: string } | null; sessions: number }[];
  rows: number;
  classes: Record<string, number>;
  splits: { name: string; rows: number; byClass: Record<string, number> }[];
  splitWarnings: string[];
  labels: { conflicts: Record<string, number>; sources: Record<string, unknown> };
  audit: { flagged: string[]; rows: { column: string; balancedAccuracy: number | null; reason: string | null }[] };
}

export function caveatsOf(facts: CaveatFacts): string[] {
  const out: string[] = [];
  for (const input of facts.inputs) {
    if (!input.complete && input.damage)
      out.push(
        `${input.name} is damaged at byte ${input.damage.offset} (${input.damage.message}): only the sessions before it are in the dataset.`,
      );
    if (input.sessions === 0) out.push(`${input.name} contributed no session.`);
  }
  if (facts.rows === 0) out.push("The dataset has no rows.");
  const classNames = Object.keys(facts.classes).filter((name) => facts.classes[name] > 0);
  if (facts.rows > 0 && classNames.length < 2)
    out.push(`Every session has one class (${classNames[0] ?? "none"}): nothing matched the labelling sources.`);
  for (const [pair, count] of Object.entries(facts.labels.conflicts)) {
    const [winner, loser] = pair.split(">");
    out.push(`${count} sessions matched both ${winner} and ${loser} with different classes; ${winner} decided.`);
  }
  out.push(...unmatchedLabels(facts.labels.sources));
  out.push(...facts.splitWarnings);
  for (const split of facts.splits) {
    for (const name of classNames) {
      if ((split.byClass[name] ?? 0) === 0) out.push(`Split ${split.name} has no session of class ${name}.`);
    }
  }
  if (facts.audit.flagged.length > 0) {
    out.push(
      `The leakage audit flags ${facts.audit.flagged.length} columns that identify sessions or alone separate the classes: ${facts.audit.flagged.join(", ")}.`,
    );
  }
  return out;
}

/** Labels given that matched nothing: alerts, attack conversations, schedule windows. */
function unmatchedLabels(sources: Record<string, unknown>): string[] {
  const out: string[] = [];
  const alerts = sources.alerts as { files?: { alertFile: string; unmatchedAlerts: number }[] } | undefined;
  for (const file of alerts?.files ?? []) {
    if (file.unmatchedAlerts > 0) out.push(`${file.unmatchedAlerts} alerts of ${file.alertFile} matched no session.`);
  }
  const tuples = sources.tuples as { captures?: { capture: string; tuplesWithoutSession: number }[] } | undefined;
  for (const capture of tuples?.captures ?? []) {
    if (capture.tuplesWithoutSession > 0)
      out.push(`${capture.tuplesWithoutSession} conversations of ${capture.capture} matched no session.`);
  }
  const schedule = sources.schedule as { windowsWithoutSessions?: string[] } | undefined;
  if (schedule?.windowsWithoutSessions && schedule.windowsWithoutSessions.length > 0)
    out.push(`Schedule windows that matched no session: ${schedule.windowsWithoutSessions.join(", ")}.`);
  return out;
}

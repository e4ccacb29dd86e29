// Labels by IDS alerts (unified2 or EVE): a session matched by an alert (protocol, endpoints, time within the
// tolerance) has the alert's class; the rule is its gid:sid. Alerts label whole sessions, so the fraction is 1.
import type { AlertMatcher, Session } from "@tracemill/core";
import { type AlertLabellerFacts, describeAlert } from "../../labels/index.js";
import { type LabelSource, SessionEndpoints, type SourceMatch } from "./label-source.js";

export interface LoadedAlertFile {
  matcher: AlertMatcher;
  facts: AlertLabellerFacts;
}

export class AlertSource implements LabelSource {
  readonly kind = "alerts";
  private readonly endpoints = new SessionEndpoints();
  private readonly current: SourceMatch = { className: "", fraction: 1, rule: "" };

  /** `files` in the spec's order: the first file with a matching alert labels the session. */
  constructor(private readonly files: readonly LoadedAlertFile[]) {}

  match(session: Session): SourceMatch | null {
    const e = this.endpoints;
    const length = e.load(session);
    // Alerts carry microseconds: the session's window is widened to whole microseconds on both sides.
    const base = session.baseSec * 1e6;
    const startUs = base + Math.floor(session.firstTime / 1000);
    const endUs = base + Math.ceil(session.lastTime / 1000);
    for (const file of this.files) {
      const alert = file.matcher.match(
        session.protocol,
        length,
        e.a,
        session.fwdPort,
        e.b,
        session.bwdPort,
        startUs,
        endUs,
      );
      if (alert === undefined) continue;
      this.current.className = alert.className;
      this.current.rule = `${alert.generatorId}:${alert.signatureId}`;
      return this.current;
    }
    return null;
  }

  summary(): Record<string, unknown> {
    return {
      files: this.files.map(({ matcher, facts }) => {
        const unmatched = matcher.unmatched();
        return {
          ...facts,
          matchedAlerts: facts.alertsRead - facts.ignoredByPriority - unmatched.length,
          unmatchedAlerts: unmatched.length,
          unmatched: unmatched.slice(0, 100).map(describeAlert),
        };
      }),
    };
  }
}

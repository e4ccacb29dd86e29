// Labels by IDS alerts (unified2 or EVE): a session matched by an alert (protocol, endpoints, time within the
// tolerance) has the alert's class; the rule is its gid:sid. Alerts label whole sessions, so the fraction is 1.
import type { AlertMatcher, Session } from "@tracemill/core";
import { type AlertLabellerFacts, alertFileSummary, SessionEndpoints, sessionAlert } from "../../labels/index.js";
import type { LabelSource, SourceMatch } from "./label-source.js";

export interface LoadedAlertFile {
  matcher: AlertMatcher;
  facts: AlertLabellerFacts;
}

/** Unmatched alerts the card lists per file (it counts them all). */
const SHOWN_UNMATCHED = 100;

export class AlertSource implements LabelSource {
  readonly kind = "alerts";
  private readonly endpoints = new SessionEndpoints();
  private readonly current: SourceMatch = { className: "", fraction: 1, rule: "" };

  /** `files` in the spec's order: the first file with a matching alert labels the session. */
  constructor(private readonly files: readonly LoadedAlertFile[]) {}

  match(session: Session): SourceMatch | null {
    for (const file of this.files) {
      const alert = sessionAlert(file.matcher, this.endpoints, session);
      if (alert === undefined) continue;
      this.current.className = alert.className;
      this.current.rule = `${alert.generatorId}:${alert.signatureId}`;
      return this.current;
    }
    return null;
  }

  summary(): Record<string, unknown> {
    return { files: this.files.map(({ matcher, facts }) => alertFileSummary(matcher, facts, SHOWN_UNMATCHED)) };
  }
}

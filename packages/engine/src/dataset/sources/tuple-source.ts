// Labels by attack captures: a session whose conversation (5-tuple, either direction) occurs in an attack capture
// has that capture's class. Tuples label whole sessions, so the fraction is 1.
import type { AttackTupleSet, Session } from "@tracemill/core";
import { SessionEndpoints } from "../../labels/index.js";
import type { LabelSource, SourceMatch } from "./label-source.js";

export interface AttackTuples {
  /** The attack capture's file name, the match's rule. */
  name: string;
  className: string;
  tuples: AttackTupleSet;
}

export class TupleSource implements LabelSource {
  readonly kind = "tuples";
  private readonly endpoints = new SessionEndpoints();
  private readonly current: SourceMatch = { className: "", fraction: 1, rule: "" };
  private readonly matched: Set<string>[];

  /** `attacks` in the spec's order: the first capture holding a session's tuple labels it. */
  constructor(private readonly attacks: readonly AttackTuples[]) {
    this.matched = attacks.map(() => new Set());
  }

  match(session: Session): SourceMatch | null {
    const e = this.endpoints;
    const length = e.load(session);
    for (let i = 0; i < this.attacks.length; i++) {
      const key = this.attacks[i].tuples.find(session.protocol, length, e.a, session.fwdPort, e.b, session.bwdPort);
      if (key === undefined) continue;
      this.matched[i].add(key);
      this.current.className = this.attacks[i].className;
      this.current.rule = this.attacks[i].name;
      return this.current;
    }
    return null;
  }

  summary(): Record<string, unknown> {
    return {
      captures: this.attacks.map((attack, i) => ({
        capture: attack.name,
        class: attack.className,
        tuples: attack.tuples.size,
        tuplesWithoutSession: attack.tuples.size - this.matched[i].size,
      })),
    };
  }
}

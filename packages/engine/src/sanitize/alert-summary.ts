// Counts alerts per signature and per classtype for summary.json, in a stable order (most frequent first).
import type { EveRule } from "@tracemill/core";

export interface SignatureCount {
  gid: number;
  sid: number;
  rev: number;
  signature: string;
  classtype: string;
  priority: number;
  alerts: number;
}

export interface ClasstypeCount {
  classtype: string;
  classId: number;
  priority: number;
  alerts: number;
}

/** As many rule objects as EveAlertReader remembers. */
const recentRules = 16;

export class AlertCounter {
  total = 0;
  private readonly bySignature = new Map<string, SignatureCount>();
  private readonly byClasstype = new Map<string, ClasstypeCount>();

  /**
   * The counts of the rule objects seen lately: alerts of one rule share its object (EveAlertReader keeps 16), so
   * most alerts need no text key. Bounded, since the slow way makes a new object per alert.
   */
  private readonly recent: { rule: EveRule; signature: SignatureCount; classtype: ClasstypeCount }[] = [];

  add(alert: EveRule): void {
    this.total++;
    const recent = this.recent;
    for (let i = 0; i < recent.length; i++) {
      const known = recent[i];
      if (known.rule === alert) {
        known.signature.alerts++;
        known.classtype.alerts++;
        return;
      }
    }
    const signatureKey = `${alert.gid}:${alert.sid}`;
    let signature = this.bySignature.get(signatureKey);
    if (signature) signature.alerts++;
    else {
      signature = {
        gid: alert.gid,
        sid: alert.sid,
        rev: alert.rev,
        signature: alert.signature,
        classtype: alert.className,
        priority: alert.priority,
        alerts: 1,
      };
      this.bySignature.set(signatureKey, signature);
    }
    let classtype = this.byClasstype.get(alert.className);
    if (classtype) classtype.alerts++;
    else {
      classtype = {
        classtype: alert.className,
        classId: alert.classId,
        priority: alert.priority,
        alerts: 1,
      };
      this.byClasstype.set(alert.className, classtype);
    }
    if (recent.length === recentRules) recent.pop();
    recent.unshift({ rule: alert, signature, classtype });
  }

  signatures(): SignatureCount[] {
    return [...this.bySignature.values()].sort((a, b) => b.alerts - a.alerts || a.gid - b.gid || a.sid - b.sid);
  }

  classtypes(): ClasstypeCount[] {
    return [...this.byClasstype.values()].sort((a, b) => b.alerts - a.alerts || a.classtype.localeCompare(b.classtype));
  }
}

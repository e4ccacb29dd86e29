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

export class AlertCounter {
  total = 0;
  private readonly bySignature = new Map<string, SignatureCount>();
  private readonly byClasstype = new Map<string, ClasstypeCount>();

  add(alert: EveRule): void {
    this.total++;
    const signatureKey = `${alert.gid}:${alert.sid}`;
    const signature = this.bySignature.get(signatureKey);
    if (signature) signature.alerts++;
    else {
      this.bySignature.set(signatureKey, {
        gid: alert.gid,
        sid: alert.sid,
        rev: alert.rev,
        signature: alert.signature,
        classtype: alert.className,
        priority: alert.priority,
        alerts: 1,
      });
    }
    const classtype = this.byClasstype.get(alert.className);
    if (classtype) classtype.alerts++;
    else {
      this.byClasstype.set(alert.className, {
        classtype: alert.className,
        classId: alert.classId,
        priority: alert.priority,
        alerts: 1,
      });
    }
  }

  signatures(): SignatureCount[] {
    return [...this.bySignature.values()].sort((a, b) => b.alerts - a.alerts || a.gid - b.gid || a.sid - b.sid);
  }

  classtypes(): ClasstypeCount[] {
    return [...this.byClasstype.values()].sort((a, b) => b.alerts - a.alerts || a.classtype.localeCompare(b.classtype));
  }
}

// Multi-class labels: IDS alerts matched to sessions by protocol, endpoints (either direction) and time.
import { endpointPairKey } from "./endpoint-key.js";

/** What matching needs of an alert, whatever file it came from (unified2 or EVE JSON). */
export interface LabelAlert {
  /** Alert time in whole microseconds since the Unix epoch (unified2 and EVE both carry microseconds). */
  timeUs: number;
  /** IANA protocol number (6 TCP, 17 UDP, 1 ICMP, …). */
  protocol: number;
  /** 4 for IPv4 addresses, 16 for IPv6. */
  addressLength: number;
  src: Uint8Array;
  srcPort: number;
  dst: Uint8Array;
  dstPort: number;
  /** Lower is more severe (1 is the highest priority). */
  priority: number;
  /** The classtype's 1-based position in the classification file; 0 when the alert has no classtype. */
  classId: number;
  /** The classtype's short name ("attempted-admin"); "unknown" when the alert has none. */
  className: string;
  generatorId: number;
  signatureId: number;
}

export interface AlertMatcherOptions {
  /** How far, in microseconds, an alert may lie before a session's first or after its last packet and still match. */
  toleranceUs: number;
}

/** Default tolerance: one second, for alerts from a sensor whose clock differs slightly from the capture's. */
export const DEFAULT_ALERT_TOLERANCE_US = 1_000_000;

/** True when `a` decides over `b`: lower priority number, then earlier time, then lower class id, then input order. */
function decidesOver(a: LabelAlert, aIndex: number, b: LabelAlert, bIndex: number): boolean {
  if (a.priority !== b.priority) return a.priority < b.priority;
  if (a.timeUs !== b.timeUs) return a.timeUs < b.timeUs;
  if (a.classId !== b.classId) return a.classId < b.classId;
  return aIndex < bIndex;
}

/**
 * Indexes alerts by conversation and time once; each session then finds its alerts by one map lookup and a binary
 * search. Every alert that falls in some session's window is marked matched; the rest are reported by `unmatched()`.
 */
export class AlertMatcher {
  private readonly alerts: readonly LabelAlert[];
  /** Per conversation key: alert positions sorted by time (then input order). */
  private readonly byKey = new Map<string, number[]>();
  private readonly matched: Uint8Array;
  private readonly toleranceUs: number;

  constructor(
    alerts: readonly LabelAlert[],
    options: AlertMatcherOptions = { toleranceUs: DEFAULT_ALERT_TOLERANCE_US },
  ) {
    this.alerts = alerts;
    this.toleranceUs = options.toleranceUs;
    this.matched = new Uint8Array(alerts.length);
    alerts.forEach((alert, index) => {
      const key = endpointPairKey(
        alert.protocol,
        alert.addressLength,
        alert.src,
        alert.srcPort,
        alert.dst,
        alert.dstPort,
      );
      const list = this.byKey.get(key);
      if (list) list.push(index);
      else this.byKey.set(key, [index]);
    });
    for (const list of this.byKey.values()) {
      list.sort((x, y) => alerts[x].timeUs - alerts[y].timeUs || x - y);
    }
  }

  /**
   * The deciding alert for a session (first packet at `startUs`, last at `endUs`, microseconds since the epoch), or
   * undefined when none matches.
   */
  match(
    protocol: number,
    addressLength: number,
    a: Uint8Array,
    aPort: number,
    b: Uint8Array,
    bPort: number,
    startUs: number,
    endUs: number,
  ): LabelAlert | undefined {
    const list = this.byKey.get(endpointPairKey(protocol, addressLength, a, aPort, b, bPort));
    if (!list) return undefined;
    const from = startUs - this.toleranceUs;
    const to = endUs + this.toleranceUs;
    let best = -1;
    for (let i = this.firstAtOrAfter(list, from); i < list.length; i++) {
      const index = list[i];
      const alert = this.alerts[index];
      if (alert.timeUs > to) break;
      this.matched[index] = 1;
      if (best < 0 || decidesOver(alert, index, this.alerts[best], best)) best = index;
    }
    return best < 0 ? undefined : this.alerts[best];
  }

  /** Alerts that matched no session so far, in input order. */
  unmatched(): LabelAlert[] {
    return this.alerts.filter((_, index) => this.matched[index] === 0);
  }

  private firstAtOrAfter(list: number[], timeUs: number): number {
    let low = 0;
    let high = list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.alerts[list[mid]].timeUs < timeUs) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

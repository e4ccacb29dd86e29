// IPT time series: the gaps between a session's consecutive packets (either direction), one text line per session.

/**
 * Collects one session's gaps as integer nanoseconds while the packets arrive, and formats them once at the end.
 * Keeping integers (not formatted text) per packet is what keeps the values exact and the per-packet cost low.
 */
export class IptSeries {
  private readonly gaps: number[] = [];
  private lastSec = 0;
  private lastNsec = 0;
  private seen = false;

  /**
   * Adds the session's next packet. `backward` is true for a packet sent by the session's backward side; it gives
   * the sign of the gap that ends at this packet in the signed variant.
   */
  add(tsSec: number, tsNsec: number, backward: boolean): void {
    if (this.seen) {
      // Differences of the two parts stay exact integers; a single nanosecond count since 1970 would not (> 2^53).
      let gap = (tsSec - this.lastSec) * 1e9 + (tsNsec - this.lastNsec);
      // A timestamp going backwards is a capture artefact, not a negative gap; 0 keeps the sum equal to the duration
      // measured by the feature columns, which never go back in time either.
      if (gap < 0) gap = 0;
      this.gaps.push(backward ? -gap - 1 : gap);
    }
    this.seen = true;
    this.lastSec = tsSec;
    this.lastNsec = tsNsec;
  }

  /** Number of gaps so far: packets − 1 (0 before the second packet). */
  get length(): number {
    return this.gaps.length;
  }

  /** The line without its line break: gaps in seconds, comma-separated; empty for a one-packet session. */
  format(signed: boolean): string {
    let line = "";
    for (let i = 0; i < this.gaps.length; i++) {
      const stored = this.gaps[i];
      // Backward gaps are stored as −gap − 1 so that a backward gap of 0 keeps its direction.
      const text = stored < 0 ? formatNanosecondsAsSeconds(-stored - 1) : formatNanosecondsAsSeconds(stored);
      if (i > 0) line += ",";
      line += signed && stored < 0 ? `-${text}` : text;
    }
    return line;
  }
}

/**
 * Exact decimal seconds for a non-negative integer number of nanoseconds: the integer part, then the fraction with
 * its trailing zeros removed ("0.000125", "2", "1.5"). Never exponent notation, never rounded.
 */
export function formatNanosecondsAsSeconds(ns: number): string {
  const whole = Math.floor(ns / 1e9);
  const fraction = ns - whole * 1e9;
  if (fraction === 0) return String(whole);
  let digits = String(fraction).padStart(9, "0");
  let end = digits.length;
  while (digits.charCodeAt(end - 1) === 48) end--;
  digits = digits.slice(0, end);
  return `${whole}.${digits}`;
}

// Exact binary labels from an aggregation's provenance: which packet positions of the merged capture came from the
// attack input.

/** A run of consecutive packet positions [start, end) of the merged capture that came from the attack input. */
export interface PacketRange {
  start: number;
  end: number;
}

/**
 * Answers "did packet i come from the attack input?" for packets asked in increasing order in O(1) amortized time
 * (a forward cursor), and for any order by binary search.
 */
export class AttackPacketRanges {
  private readonly ranges: PacketRange[];
  private cursor = 0;

  /** `ranges` may come unsorted and touching; they are sorted and merged here. */
  constructor(ranges: readonly PacketRange[]) {
    const sorted = ranges.filter((r) => r.end > r.start).sort((x, y) => x.start - y.start);
    const merged: PacketRange[] = [];
    for (const range of sorted) {
      const last = merged[merged.length - 1];
      if (last && range.start <= last.end) last.end = Math.max(last.end, range.end);
      else merged.push({ start: range.start, end: range.end });
    }
    this.ranges = merged;
  }

  /** Number of attack packets the ranges cover. */
  get packetCount(): number {
    let total = 0;
    for (const range of this.ranges) total += range.end - range.start;
    return total;
  }

  isAttack(index: number): boolean {
    const ranges = this.ranges;
    // Ranges before the cursor end at or before the previous index asked; going back needs a search.
    if (this.cursor > 0 && index < ranges[this.cursor - 1].end) this.cursor = this.search(index);
    while (this.cursor < ranges.length && ranges[this.cursor].end <= index) this.cursor++;
    return this.cursor < ranges.length && ranges[this.cursor].start <= index;
  }

  /** First range whose end lies beyond `index`. */
  private search(index: number): number {
    let low = 0;
    let high = this.ranges.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.ranges[mid].end <= index) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

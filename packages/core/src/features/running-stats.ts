// Count, sum, min, max and sample standard deviation of a stream of values, in constant memory.

/**
 * Sums stay exact while they are integers below 2^53 (packet lengths, nanosecond gaps). The variance uses Welford's
 * update: each step adds a product of two same-signed differences, so the sum of squares never goes negative and
 * the result never becomes NaN; it is deterministic for the same values in the same order.
 */
export class RunningStats {
  count = 0;
  sum = 0;
  min = 0;
  max = 0;
  private mean = 0;
  private squares = 0;

  reset(): void {
    this.count = 0;
    this.sum = 0;
    this.min = 0;
    this.max = 0;
    this.mean = 0;
    this.squares = 0;
  }

  add(value: number): void {
    const count = ++this.count;
    this.sum += value;
    if (count === 1) {
      this.min = value;
      this.max = value;
      this.mean = value;
      return;
    }
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
    const delta = value - this.mean;
    this.mean += delta / count;
    this.squares += delta * (value - this.mean);
  }

  /** Arithmetic mean; 0 for no values. */
  get average(): number {
    return this.count === 0 ? 0 : this.sum / this.count;
  }

  /** Sample standard deviation (n − 1); 0 for fewer than two values. */
  get deviation(): number {
    return this.count < 2 ? 0 : Math.sqrt(this.squares / (this.count - 1));
  }
}

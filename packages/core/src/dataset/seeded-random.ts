// A seeded generator for splits and audit samples: 32-bit integer arithmetic only, so the same seed gives the same
// sequence on every platform and a dataset rebuilt from its card gets the same splits.
import { TracemillError } from "../errors.js";

const TWO_32 = 4294967296;

/** SplitMix32's finaliser: spreads nearby seeds (0, 1, 2…) into unrelated states. */
function mix32(x: number): number {
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  return (x ^ (x >>> 16)) >>> 0;
}

const rotl = (x: number, k: number): number => (x << k) | (x >>> (32 - k));

/**
 * xoshiro128** (Blackman and Vigna) seeded through SplitMix32. `seed` is any safe integer (both 32-bit halves count);
 * `stream` picks an independent sequence for the same seed, so each use within one build draws its own numbers.
 */
export class SeededRandom {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number, stream = 0) {
    if (!Number.isSafeInteger(seed)) {
      throw new TracemillError("BAD_OPTION", `seed ${seed} is not an integer between -(2^53-1) and 2^53-1`, { seed });
    }
    const low = seed >>> 0;
    const high = Math.floor(seed / TWO_32) >>> 0;
    let state = mix32(mix32(mix32(low) ^ high) ^ (stream >>> 0));
    const next = (): number => {
      state = (state + 0x9e3779b9) | 0;
      return mix32(state) | 0;
    };
    this.a = next();
    this.b = next();
    this.c = next();
    this.d = next();
    if ((this.a | this.b | this.c | this.d) === 0) this.a = 1;
  }

  /** The next integer in [0, 2^32). */
  uint32(): number {
    const result = Math.imul(rotl(Math.imul(this.b, 5), 7), 9) >>> 0;
    const t = this.b << 9;
    this.c ^= this.a;
    this.d ^= this.b;
    this.b ^= this.c;
    this.a ^= this.d;
    this.c ^= t;
    this.d = rotl(this.d, 11);
    return result;
  }

  /** An integer in [0, n) for 1 ≤ n ≤ 2^32, each equally likely (rejection, no modulo bias). */
  below(n: number): number {
    const limit = TWO_32 - (TWO_32 % n);
    let x = this.uint32();
    while (x >= limit) x = this.uint32();
    return x % n;
  }

  /** A number in [0, 1) with 32 random bits. */
  float(): number {
    return this.uint32() / TWO_32;
  }

  /** Shuffles `values[start, end)` in place (Fisher–Yates): every order equally likely. */
  shuffle(values: Uint32Array, start = 0, end = values.length): void {
    for (let i = end - 1; i > start; i--) {
      const j = start + this.below(i - start + 1);
      const held = values[i];
      values[i] = values[j];
      values[j] = held;
    }
  }
}

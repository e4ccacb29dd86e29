// Exact integer timestamp arithmetic: 64-bit tick counts to whole seconds + nanoseconds, without float rounding.

const TWO_32 = 4294967296;
const TWO_16 = 65536;

/** How one interface's ticks become seconds and nanoseconds; computed once per interface. */
export interface TickScale {
  unitsPerSecond: number;
  /** Nanoseconds per tick when that is a whole number (1e9 divisible by unitsPerSecond), else 0. */
  nsPerTick: number;
}

export function tickScale(unitsPerSecond: number): TickScale {
  const nsPerTick = 1e9 % unitsPerSecond === 0 ? 1e9 / unitsPerSecond : 0;
  return { unitsPerSecond, nsPerTick };
}

/** Units per second of a pcapng if_tsresol byte: 10^n, or 2^n when the top bit is set. */
export function unitsPerSecondOfTsresol(tsresol: number): number {
  const exponent = tsresol & 0x7f;
  return tsresol & 0x80 ? 2 ** exponent : 10 ** exponent;
}

/** Result holder so splitting ticks allocates nothing. */
export interface Timestamp {
  tsSec: number;
  tsNsec: number;
}

/**
 * Splits the unsigned 64-bit tick count hi·2^32 + lo into whole seconds and nanoseconds (truncated, as libpcap and
 * Wireshark do). Exact for every resolution: 16-bit long division when units fit 32 bits, BigInt otherwise.
 */
export function splitTicks(hi: number, lo: number, scale: TickScale, out: Timestamp): void {
  const d = scale.unitsPerSecond;
  let seconds: number;
  let rest: number;
  if (hi < 0x200000) {
    const ticks = hi * TWO_32 + lo;
    seconds = Math.floor(ticks / d);
    rest = ticks - seconds * d;
    if (rest < 0) {
      seconds -= 1;
      rest += d;
    }
  } else if (d <= TWO_32) {
    const q1 = Math.floor(hi / d);
    let r = hi - q1 * d;
    let part = r * TWO_16 + (lo >>> 16);
    let q2 = Math.floor(part / d);
    r = part - q2 * d;
    if (r < 0) {
      q2 -= 1;
      r += d;
    }
    part = r * TWO_16 + (lo & 0xffff);
    let q3 = Math.floor(part / d);
    r = part - q3 * d;
    if (r < 0) {
      q3 -= 1;
      r += d;
    }
    seconds = q1 * TWO_32 + q2 * TWO_16 + q3;
    rest = r;
  } else {
    const ticks = (BigInt(hi) << 32n) | BigInt(lo);
    const units = BigInt(d);
    out.tsSec = Number(ticks / units);
    out.tsNsec = Number(((ticks % units) * 1_000_000_000n) / units);
    return;
  }
  out.tsSec = seconds;
  out.tsNsec = scale.nsPerTick !== 0 ? rest * scale.nsPerTick : fractionToNs(rest, d);
}

/** floor(rest · 1e9 / units) for a remainder below units, exactly. */
function fractionToNs(rest: number, units: number): number {
  if (rest * 1e9 <= Number.MAX_SAFE_INTEGER) return Math.floor((rest * 1e9) / units);
  return Number((BigInt(rest) * 1_000_000_000n) / BigInt(units));
}

/**
 * The inverse: ticks of `unitsPerSecond` (a power of ten up to 1e9) for sec + nsec, as hi/lo 32-bit words.
 * Nanoseconds below one tick are truncated.
 */
export function joinTicks(
  tsSec: number,
  tsNsec: number,
  unitsPerSecond: number,
  out: { hi: number; lo: number },
): void {
  const frac = Math.floor(tsNsec / (1e9 / unitsPerSecond));
  const ticks = tsSec * unitsPerSecond + frac;
  if (Number.isSafeInteger(ticks) && ticks >= 0) {
    out.hi = Math.floor(ticks / TWO_32);
    out.lo = ticks - out.hi * TWO_32;
    return;
  }
  const big = BigInt(tsSec) * BigInt(unitsPerSecond) + BigInt(frac);
  out.hi = Number((big >> 32n) & 0xffffffffn);
  out.lo = Number(big & 0xffffffffn);
}

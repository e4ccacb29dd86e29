// Where the attack capture lands: the shift that puts its first packet (in file order) at the chosen point of
// the background — midpoint (default), --at seconds after the background's start, --at-time, or --sequential.
import { TracemillError } from "@tracemill/core/errors";
import type { CaptureScan } from "./scan.js";
import { floorTo, parseIsoTime, parseSeconds, toNs } from "./timestamp.js";

export interface PlacementOptions {
  /** Seconds after the background's earliest packet (decimal text, exact to the nanosecond). */
  at?: string;
  /** An absolute ISO 8601 time with a zone. */
  atTime?: string;
  /** Right after the background's latest packet. */
  sequential?: boolean;
}

export type PlacementMode = "midpoint" | "at" | "at-time" | "sequential";

export interface Placement {
  mode: PlacementMode;
  /** Nanoseconds added to every attack timestamp. */
  shiftNs: bigint;
  /** Where the attack's first packet lands (ns since the epoch); null without attack packets. */
  firstAttackPacketNs: bigint | null;
}

/** The placement options checked and parsed, before any input is read. */
export interface ParsedPlacement {
  mode: PlacementMode;
  atNs: bigint;
  atTimeNs: bigint;
}

export function parsePlacement(options: PlacementOptions): ParsedPlacement {
  const chosen = [options.at !== undefined, options.atTime !== undefined, options.sequential === true];
  if (chosen.filter(Boolean).length > 1) {
    throw new TracemillError("BAD_OPTION", "choose one of --at, --at-time and --sequential", {});
  }
  const mode: PlacementMode =
    options.at !== undefined
      ? "at"
      : options.atTime !== undefined
        ? "at-time"
        : options.sequential
          ? "sequential"
          : "midpoint";
  return {
    mode,
    atNs: options.at !== undefined ? parseSeconds(options.at, "--at") : 0n,
    atTimeNs: options.atTime !== undefined ? parseIsoTime(options.atTime, "--at-time") : 0n,
  };
}

/**
 * The shift, floored to `stepNs` (the attack packets' stored resolution) so every shifted timestamp is exact and
 * every gap between attack packets stays the same. Without background packets the attacks keep their times
 * (unless --at-time is given).
 */
export function placeAttacks(
  background: CaptureScan,
  attacks: CaptureScan,
  { mode, atNs, atTimeNs }: ParsedPlacement,
  stepNs: bigint,
): Placement {
  if (!attacks.first) return { mode, shiftNs: 0n, firstAttackPacketNs: null };
  const firstAttack = toNs(attacks.first);
  let target: bigint;
  if (mode === "at-time") target = atTimeNs;
  else if (!background.min || !background.max) target = firstAttack;
  else {
    const start = toNs(background.min);
    const end = toNs(background.max);
    if (mode === "at") target = start + atNs;
    else if (mode === "sequential") target = end + stepNs;
    else target = floorTo(start + end, 2n) / 2n;
  }
  const shiftNs = floorTo(target - firstAttack, stepNs);
  return { mode, shiftNs, firstAttackPacketNs: firstAttack + shiftNs };
}

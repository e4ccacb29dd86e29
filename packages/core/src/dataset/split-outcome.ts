// What a split method hands back to assignSplits besides the split column, and the percentages its warnings print.

export interface MethodOutcome {
  details: Record<string, unknown>;
  /** Why the fractions may be unreachable, for the warning (e.g. "the largest connected group … holds 71 %"). */
  cause?: string;
}

/** 0.712 → "71.2 %", 0.2 → "20 %". */
export const percent = (fraction: number): string => `${Number((fraction * 100).toFixed(1))} %`;

// What a result warning is: a code (docs/formats.md, "Result warnings") and one sentence for the user.

export type ResultWarningCode =
  | "input-damaged"
  | "no-sessions"
  | "single-packet-sessions"
  | "no-alerts-matched"
  | "no-attacks-matched"
  | "no-attack-sessions"
  | "single-class"
  | "no-attack-packets"
  | "split-off-target"
  | "class-missing-from-split"
  | "leaky-feature";

export interface ResultWarning {
  code: ResultWarningCode;
  /** One sentence for the user saying what is suspect and why. */
  message: string;
}

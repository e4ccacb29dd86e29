// Checks made before or between the merge's passes: options against the inputs, and what a pcap can store.
import fs from "node:fs";
import path from "node:path";
import { TracemillError } from "@tracemill/core/errors";
import type { CaptureScan } from "./scan.js";
import { formatIsoTime, toNs } from "./timestamp.js";

const MAX_PCAP_SECONDS = 2 ** 32 - 1;

/** Shifted attack timestamps must fit the output's unsigned seconds (pcap: 32 bits; both: not before 1970). */
export function checkRepresentable(attacks: CaptureScan, shiftNs: bigint, format: "pcap" | "pcapng"): void {
  if (!attacks.min || !attacks.max) return;
  const first = toNs(attacks.min) + shiftNs;
  const last = toNs(attacks.max) + shiftNs;
  const limit = format === "pcap" ? BigInt(MAX_PCAP_SECONDS) * 1_000_000_000n : 2n ** 63n;
  if (first < 0n || last > limit) {
    throw new TracemillError(
      "BAD_OPTION",
      `the shifted attack packets would span ${formatIsoTime(first)} to ${formatIsoTime(last)}, which a ${format} file cannot store`,
      { shiftNs: shiftNs.toString() },
    );
  }
}

/** An output name that would overwrite an input is refused. */
export function refuseReplacing(name: string, background: string, attacks: string, outDir: string): void {
  if ([background, attacks].some((input) => path.resolve(input) === path.resolve(outDir, name))) {
    throw new TracemillError("BAD_OPTION", `the output ${name} would replace an input`, { file: name });
  }
}

/** The file's size: NOT_FOUND when it is missing, BAD_INPUT unless it is a regular file (a merge reads it twice). */
export function fileSize(file: string): number {
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch {
    throw new TracemillError("NOT_FOUND", `${path.basename(file)}: no such file`, { file });
  }
  if (!stat.isFile()) {
    throw new TracemillError("BAD_INPUT", `${file}: not a regular file; a merge reads its inputs twice`, { file });
  }
  return stat.size;
}

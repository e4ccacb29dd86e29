// Reads a merge's provenance record (JSON lines) as a stream of runs, checking that it is whole and consistent;
// the labelling capability uses it to label the attack packets of a merged capture exactly.
import fs from "node:fs";
import readline from "node:readline";
import { TracemillError } from "@tracemill/core/errors";
import {
  PROVENANCE_FORMAT,
  PROVENANCE_VERSION,
  type ProvenanceHeader,
  type ProvenanceRun,
  type ProvenanceTrailer,
} from "./provenance.js";

/** Calls `onRun` for every run in output order and returns the header and trailer once the record checks out. */
export async function readProvenance(
  file: string,
  onRun: (run: ProvenanceRun, header: ProvenanceHeader) => void = () => {},
): Promise<{ header: ProvenanceHeader; trailer: ProvenanceTrailer }> {
  if (!fs.existsSync(file)) throw new TracemillError("NOT_FOUND", `no provenance record at ${file}`, { file });
  const damaged = (line: number, reason: string) =>
    new TracemillError("DAMAGED_INPUT", `${file}, line ${line}: ${reason}`, { file, line });
  const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
  let header: ProvenanceHeader | undefined;
  let trailer: ProvenanceTrailer | undefined;
  let lineNumber = 0;
  let packets = 0;
  let runs = 0;
  for await (const text of lines) {
    lineNumber++;
    if (trailer) throw damaged(lineNumber, "text after the end line");
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      throw damaged(lineNumber, "not JSON");
    }
    if (!header) {
      header = checkHeader(value, () =>
        damaged(lineNumber, `not a ${PROVENANCE_FORMAT} version ${PROVENANCE_VERSION} header`),
      );
      continue;
    }
    if (Array.isArray(value)) {
      const [input, outputStart, originalStart, count] = value as number[];
      const valid =
        value.length === 4 &&
        (input === 0 || input === 1) &&
        outputStart === packets &&
        Number.isSafeInteger(originalStart) &&
        originalStart >= 0 &&
        Number.isSafeInteger(count) &&
        count > 0;
      if (!valid) throw damaged(lineNumber, `bad run ${text} (the next output packet is ${packets})`);
      onRun({ input, outputStart, originalStart, count }, header);
      packets += count;
      runs++;
      continue;
    }
    const end = value as Partial<ProvenanceTrailer>;
    if (end?.end !== true || end.packets !== packets || end.runs !== runs) {
      throw damaged(lineNumber, `end line does not match the ${runs} runs and ${packets} packets read`);
    }
    trailer = end as ProvenanceTrailer;
  }
  if (!header) throw damaged(0, "empty file");
  if (!trailer) throw damaged(lineNumber, "the record ends without its end line (incomplete)");
  return { header, trailer };
}

/**
 * The output positions [start, end) that came from the attack input, merged into maximal ranges: what
 * `AttackPacketRanges` of core/labels takes for exact packet labels.
 */
export async function readAttackPacketRanges(
  file: string,
): Promise<{ header: ProvenanceHeader; ranges: { start: number; end: number }[] }> {
  const ranges: { start: number; end: number }[] = [];
  const { header } = await readProvenance(file, (run) => {
    if (run.input !== 1) return;
    const last = ranges[ranges.length - 1];
    if (last && last.end === run.outputStart) last.end += run.count;
    else ranges.push({ start: run.outputStart, end: run.outputStart + run.count });
  });
  return { header, ranges };
}

function checkHeader(value: unknown, fail: () => TracemillError): ProvenanceHeader {
  const header = value as Partial<ProvenanceHeader> | null;
  if (
    !header ||
    header.format !== PROVENANCE_FORMAT ||
    header.version !== PROVENANCE_VERSION ||
    !Array.isArray(header.inputs) ||
    header.inputs.length !== 2 ||
    typeof header.shiftNs !== "string"
  ) {
    throw fail();
  }
  return header as ProvenanceHeader;
}

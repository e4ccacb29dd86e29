// Chooses and prepares the labelling method from the options: provenance (exact), 5-tuples, or IDS alerts.
import fs from "node:fs";
import path from "node:path";
import {
  AlertMatcher,
  AttackPacketRanges,
  AttackTupleSet,
  DEFAULT_ALERT_TOLERANCE_US,
  DecodeKind,
  PacketDecoder,
  TracemillError,
} from "@tracemill/core";
import type { RunOptions } from "../capability.js";
import { readCapture } from "../input/index.js";
import { readAttackPacketRanges } from "../provenance/index.js";
import { defaultRulesetDir } from "../suricata/index.js";
import { loadAlerts, loadClassification } from "./load-alerts.js";
import {
  AlertLabeller,
  type AlertLabellerFacts,
  ProvenanceLabeller,
  type SessionLabeller,
  TupleLabeller,
} from "./session-labeller.js";

export interface LabelSourceOptions {
  /** Binary labels: the capture holding the attacks. */
  attacks?: string;
  /** Multi-class labels: a unified2 file or Suricata EVE JSON. */
  alerts?: string;
  /** classification.config naming the alerts' classtypes. */
  classification?: string;
  /** Ignore alerts whose priority number is above this. */
  maxPriority?: number;
  /** Seconds an alert may lie outside a session and still match it (default 1). */
  tolerance?: number;
  /** The merge provenance record to label from; default: found beside the capture. `false` never uses one. */
  provenance?: string | false;
}

/**
 * The label options for `captures`, the parts of one split capture when there are several: a provenance record
 * labels one merged capture by its packet positions, so for several parts none is looked for, and one given is
 * refused.
 */
export function labelOptionsForParts<T extends LabelSourceOptions>(captures: readonly string[], options: T): T {
  if (captures.length === 1) return options;
  if (typeof options.provenance === "string") {
    throw new TracemillError("BAD_OPTION", "a provenance record labels one merged capture: give that capture alone", {
      file: options.provenance,
    });
  }
  return { ...options, provenance: false };
}

/** The label options as the summary records them: file names without directories. */
export function labelSourceSummary(options: LabelSourceOptions): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of ["attacks", "alerts", "classification", "provenance"] as const) {
    const value = options[key];
    if (value !== undefined) out[key] = typeof value === "string" ? path.basename(value) : value;
  }
  if (options.maxPriority !== undefined) out.maxPriority = options.maxPriority;
  if (options.tolerance !== undefined) out.tolerance = options.tolerance;
  return out;
}

/** The provenance record `tracemill merge` leaves beside `merged.pcap`: `merged.provenance.jsonl`. */
export function provenanceBeside(capture: string): string {
  return `${capture.replace(/\.(pcapng|pcap|cap)$/i, "")}.provenance.jsonl`;
}

export interface PreparedLabeller {
  labeller: SessionLabeller;
  /** Packets the provenance record describes, to check against the capture after the pass. */
  provenancePackets?: number;
}

export async function createLabeller(
  capture: string,
  options: LabelSourceOptions,
  run: Pick<RunOptions, "onProgress" | "signal">,
): Promise<PreparedLabeller> {
  if (options.attacks && options.alerts) {
    throw new TracemillError("BAD_OPTION", "give either attacks (binary labels) or alerts (classes), not both");
  }
  if (options.alerts) return { labeller: await alertLabeller(options.alerts, options) };
  const provenance = findProvenance(capture, options.provenance);
  if (provenance) {
    const { header, ranges } = await readAttackPacketRanges(provenance);
    const attackInput = header.inputs[1].file;
    if (options.attacks && path.basename(options.attacks) !== attackInput) {
      throw new TracemillError(
        "BAD_OPTION",
        `${provenance} says the attacks came from ${attackInput}, not ${path.basename(options.attacks)}`,
        { file: provenance },
      );
    }
    const labeller = new ProvenanceLabeller(new AttackPacketRanges(ranges), {
      file: path.basename(provenance),
      attackInput,
    });
    const packets = header.inputs[0].packets + header.inputs[1].packets;
    return { labeller, provenancePackets: packets };
  }
  if (!options.attacks) {
    throw new TracemillError(
      "BAD_OPTION",
      "labelling needs an attack capture, an alert file or a merge provenance record",
    );
  }
  return { labeller: new TupleLabeller(await attackTuples(options.attacks, run), path.basename(options.attacks)) };
}

function findProvenance(capture: string, option: string | false | undefined): string | undefined {
  if (option === false) return undefined;
  if (typeof option === "string") {
    if (!fs.existsSync(option))
      throw new TracemillError("NOT_FOUND", `${option}: no such provenance record`, { file: option });
    return option;
  }
  const beside = provenanceBeside(capture);
  return fs.existsSync(beside) ? beside : undefined;
}

/** Every TCP/UDP conversation of the attack capture (fragments count by their first fragment, which has the ports). */
export async function attackTuples(
  file: string,
  run: Pick<RunOptions, "onProgress" | "signal">,
): Promise<AttackTupleSet> {
  const tuples = new AttackTupleSet();
  const decoder = new PacketDecoder();
  await readCapture(
    file,
    (packet) => {
      const d = decoder.decode(packet);
      if (d.kind !== DecodeKind.Tcp && d.kind !== DecodeKind.Udp) return;
      tuples.add(d.protocol, d.ipVersion === 4 ? 4 : 16, d.src, d.srcPort, d.dst, d.dstPort);
    },
    { signal: run.signal },
  );
  return tuples;
}

/** The summary's `classification` when none was given. */
export const DEFAULT_CLASSIFICATION = "default (the bundled ruleset's classification.config)";

function defaultClassificationFile(): string {
  return path.join(defaultRulesetDir(), "classification.config");
}

async function alertLabeller(file: string, options: LabelSourceOptions): Promise<AlertLabeller> {
  const { matcher, facts } = await prepareAlerts(file, options);
  return new AlertLabeller(matcher, facts);
}

/** The alerts of `file` kept by the options, ready to match sessions, and the facts the summary gives of them. */
export async function prepareAlerts(
  file: string,
  options: LabelSourceOptions,
): Promise<{ matcher: AlertMatcher; facts: AlertLabellerFacts }> {
  const tolerance = options.tolerance ?? DEFAULT_ALERT_TOLERANCE_US / 1e6;
  if (!(tolerance >= 0) || !Number.isFinite(tolerance)) {
    throw new TracemillError("BAD_OPTION", "the alert time tolerance must be a number of seconds ≥ 0", { tolerance });
  }
  const maxPriority = options.maxPriority;
  if (maxPriority !== undefined && !(Number.isInteger(maxPriority) && maxPriority >= 1)) {
    throw new TracemillError("BAD_OPTION", "the maximum priority must be a whole number ≥ 1", { maxPriority });
  }
  // Without one, the bundled ruleset's (Suricata's own, whose first 34 classtypes are Snort's in Snort's order) names
  // the classes: the numbers unified2 stores become names, and EVE's descriptions the same short names.
  const classifications = await loadClassification(options.classification ?? defaultClassificationFile());
  const loaded = await loadAlerts(file, classifications);
  const kept = maxPriority === undefined ? loaded.alerts : loaded.alerts.filter((a) => a.priority <= maxPriority);
  const matcher = new AlertMatcher(kept, { toleranceUs: Math.round(tolerance * 1e6) });
  const facts: AlertLabellerFacts = {
    alertFile: path.basename(file),
    format: loaded.format,
    classification: options.classification ? path.basename(options.classification) : DEFAULT_CLASSIFICATION,
    toleranceSeconds: tolerance,
    maxPriority: maxPriority ?? null,
    alertsRead: loaded.alerts.length,
    ignoredByPriority: loaded.alerts.length - kept.length,
    otherEvents: loaded.otherEvents,
    alertsWithoutAddresses: loaded.alertsWithoutAddresses,
    skippedRecords: loaded.skippedRecords,
    warnings: loaded.warnings,
  };
  return { matcher, facts };
}

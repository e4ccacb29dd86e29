// The spec's labelling sources, loaded: attack captures' tuples, alert files and the schedule once for the whole
// build; a merge's provenance record per capture, when one lies beside it.
import fs from "node:fs";
import path from "node:path";
import { AttackPacketRanges, compileSchedule, TracemillError } from "@tracemill/core";
import type { RunOptions } from "../../capability.js";
import { attackTuples, prepareAlerts, provenanceBeside } from "../../labels/index.js";
import { readAttackPacketRanges } from "../../provenance/index.js";
import { AlertSource } from "../sources/alert-source.js";
import type { LabelSource, LabelSourceKind } from "../sources/label-source.js";
import { ProvenanceSource } from "../sources/provenance-source.js";
import { ScheduleSource } from "../sources/schedule-source.js";
import { TupleSource } from "../sources/tuple-source.js";
import { type DatasetSpec, DEFAULT_PRECEDENCE } from "../spec/dataset-spec.js";

/** Provenance labels name no class: the one the spec gives the merge's attack capture, or this. */
export const PROVENANCE_DEFAULT_CLASS = "attack";

export interface LoadedSources {
  /** The sources shared by every capture. */
  shared: Map<LabelSourceKind, LabelSource>;
  precedence: readonly LabelSourceKind[];
}

/** `resolve` turns a spec's file into a path (relative to the spec's folder). */
export async function loadSharedSources(
  spec: DatasetSpec,
  resolve: (file: string) => string,
  run: Pick<RunOptions, "onProgress" | "signal">,
): Promise<LoadedSources> {
  const shared = new Map<LabelSourceKind, LabelSource>();
  const labels = spec.labels;
  if (labels.attacks.length > 0) {
    const attacks = [];
    for (const attack of labels.attacks) {
      const file = mustExist(resolve(attack.path), "labels.attacks");
      attacks.push({ name: path.basename(file), className: attack.class, tuples: await attackTuples(file, run) });
    }
    shared.set("tuples", new TupleSource(attacks));
  }
  if (labels.alerts.length > 0) {
    const files = [];
    for (const alerts of labels.alerts) {
      const file = mustExist(resolve(alerts.path), "labels.alerts");
      const classification = alerts.classification && mustExist(resolve(alerts.classification), "labels.alerts");
      files.push(
        await prepareAlerts(file, {
          classification,
          maxPriority: alerts.maxPriority,
          tolerance: alerts.tolerance,
        }),
      );
    }
    shared.set("alerts", new AlertSource(files));
  }
  if (labels.schedule) shared.set("schedule", new ScheduleSource(compileSchedule(labels.schedule)));
  // Sources the spec's precedence leaves out follow in the default order.
  const given = labels.precedence ?? [];
  const precedence = [...given, ...DEFAULT_PRECEDENCE.filter((kind) => !given.includes(kind))];
  return { shared, precedence };
}

/** The sources of one capture in the order of precedence: the shared ones and its provenance record, if any. */
export async function sourcesFor(
  capture: string,
  spec: DatasetSpec,
  loaded: LoadedSources,
): Promise<{ sources: LabelSource[]; provenancePackets?: number }> {
  let provenance: ProvenanceSource | undefined;
  let provenancePackets: number | undefined;
  const record = provenanceBeside(capture);
  if (spec.labels.provenance && fs.existsSync(record)) {
    const { header, ranges } = await readAttackPacketRanges(record);
    const attackInput = header.inputs[1].file;
    const className = spec.labels.attacks.find((a) => path.basename(a.path) === attackInput)?.class;
    provenance = new ProvenanceSource(
      new AttackPacketRanges(ranges),
      { file: path.basename(record), attackInput },
      className ?? PROVENANCE_DEFAULT_CLASS,
    );
    provenancePackets = header.inputs[0].packets + header.inputs[1].packets;
  }
  const sources: LabelSource[] = [];
  for (const kind of loaded.precedence) {
    const source = kind === "provenance" ? provenance : loaded.shared.get(kind);
    if (source) sources.push(source);
  }
  return { sources, provenancePackets };
}

function mustExist(file: string, field: string): string {
  if (!fs.existsSync(file)) throw new TracemillError("NOT_FOUND", `${field}: ${file}: no such file`, { file, field });
  return file;
}

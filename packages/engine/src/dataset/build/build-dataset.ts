// Builds a dataset from its spec in one pass over each capture: features of the chosen sets, labels from every
// source with their provenance, then the rows split without leakage into one Parquet file per split, the leakage
// audit, and the card (docs/datasets.md).
import fs from "node:fs";
import path from "node:path";
import { assignSplits, type Column, columnSchema, featureSetsNamed, TracemillError } from "@tracemill/core";
import type { CapabilityResult, RunOptions } from "../../capability.js";
import { openParquetFile, type ParquetSink } from "../../output/index.js";
import { runSessionPass, type SessionPassSummary } from "../../pass/index.js";
import { TRACEMILL_VERSION } from "../../version.js";
import { type CaptureRead, writeCard } from "../card/dataset-card.js";
import { RowStore } from "../rows/row-store.js";
import { CombinedLabels, LABEL_COLUMNS } from "../sources/combined-labels.js";
import { type LoadedSpec, specPath } from "../spec/load-spec.js";
import { loadSharedSources, sourcesFor } from "./load-sources.js";
import { routeAndAudit } from "./route-and-audit.js";
import { routeKept } from "./route-rows.js";
import { SplitKeysBuilder } from "./split-keys.js";

/** The column naming each row's capture, before the label columns. */
const CAPTURE_COLUMN: Column = { name: "capture", type: "string" };

export interface DatasetRunOptions {
  /** Also write each split without the columns the audit flags (overrides the spec's audit.dropFlagged). */
  dropFlagged?: boolean;
  /**
   * The folder the card will be read from, when the outputs are moved after the build (default: the output
   * directory): the card's paths to the inputs are relative to it.
   */
  cardDir?: string;
}

export async function buildDataset(
  loaded: LoadedSpec,
  given: DatasetRunOptions,
  run: RunOptions,
): Promise<CapabilityResult> {
  const spec = loaded.spec;
  const resolve = (file: string) => specPath(loaded, file);
  const captures = spec.captures.map((ref, i) => {
    const entry = typeof ref === "string" ? { path: ref } : ref;
    const file = resolve(entry.path);
    if (!fs.existsSync(file))
      throw new TracemillError("NOT_FOUND", `captures[${i}]: ${file}: no such file`, { file, field: `captures[${i}]` });
    return { file, sha256: entry.sha256 };
  });
  const names = captures.map((c) => path.basename(c.file));
  const sets = featureSetsNamed(spec.features);
  const extras: Column[] = [CAPTURE_COLUMN, ...LABEL_COLUMNS];
  const schema: Column[] = [...columnSchema(sets), ...extras];
  const sources = await loadSharedSources(spec, resolve, run);
  const labels = new CombinedLabels(sources.precedence);
  const keys = new SplitKeysBuilder();
  const store = new RowStore(run.outDir);
  const reads: CaptureRead[] = [];
  const created: ParquetSink[] = [];
  try {
    let base = 0;
    const sizes = captures.map((c) => fs.statSync(c.file).size);
    const totalBytes = sizes.reduce((sum, size) => sum + size, 0) || 1;
    let doneBytes = 0;
    for (const [i, capture] of captures.entries()) {
      run.signal?.throwIfAborted();
      const { sources: own, provenancePackets } = await sourcesFor(capture.file, spec, sources);
      labels.use(own);
      const name = names[i];
      const span = { first: Number.POSITIVE_INFINITY, last: Number.NEGATIVE_INFINITY };
      const size = sizes[i];
      const rowBase = base;
      const summary = (await runSessionPass(
        capture.file,
        { cells: store.write, name: "rows" },
        extras,
        {
          createState: () => undefined,
          onStart() {},
          onPacket: labels.needsPackets ? (session, packet) => labels.onPacket(session, packet) : undefined,
          onEnd(_state, session, row) {
            row.text(name);
            const decided = labels.label(session, row);
            const at = rowBase + session.seq;
            keys.add(at, session, decided.classId, decided.campaign);
            store.setLength(at, row.length);
            const start = session.baseSec * 1e6 + session.firstTime / 1000;
            const end = session.baseSec * 1e6 + session.lastTime / 1000;
            if (start < span.first) span.first = start;
            if (end > span.last) span.last = end;
          },
        },
        { features: spec.features, ...spec.options, format: "csv" },
        {
          ...run,
          onProgress: run.onProgress
            ? (progress) =>
                run.onProgress!({
                  percent: (90 * (doneBytes + (size * progress.percent) / 100)) / totalBytes,
                  stage: `reading ${name} (${i + 1} of ${captures.length})`,
                })
            : undefined,
        },
      )) as unknown as SessionPassSummary & { rows: { rows: number } };
      doneBytes += size;
      labels.captureDone(name);
      if (capture.sha256 !== undefined && summary.input.sha256 !== capture.sha256) {
        throw new TracemillError(
          "BAD_INPUT",
          `captures[${i}]: ${name} has SHA-256 ${summary.input.sha256}, not the ${capture.sha256} the spec records: not the same capture`,
          { file: capture.file, field: `captures[${i}].sha256` },
        );
      }
      if (provenancePackets !== undefined && provenancePackets !== summary.packets.read) {
        throw new TracemillError(
          "BAD_INPUT",
          `the provenance record beside ${name} describes ${provenancePackets} packets but the capture has ${summary.packets.read}: it belongs to another capture`,
          { file: capture.file },
        );
      }
      reads.push({ file: capture.file, summary, span });
      base += summary.rows.rows;
    }
    run.signal?.throwIfAborted();
    run.onProgress?.({ percent: 90, stage: "splitting" });
    const splitKeys = keys.keys(labels.classes);
    // A time split keeps each schedule window whole; other campaigns (an attack capture, a signature) may span the
    // cut, as the sessions they label are not one window of time.
    if (spec.split.method === "time") keepWindowsOnly(splitKeys.group, labels.campaigns);
    const splits = assignSplits(splitKeys, spec.split);
    const files: ParquetSink[] = [];
    for (const split of spec.split.splits) {
      const file = await openParquetFile(path.join(run.outDir, `${split.name}.parquet`), schema, {
        createdBy: `tracemill ${TRACEMILL_VERSION}`,
        summaryBytes: 1024,
      });
      files.push(file);
      created.push(file);
    }
    run.onProgress?.({ percent: 91, stage: "writing the splits" });
    const audit = await routeAndAudit(
      store,
      { spec, schema, splits, classIds: splitKeys.classId, classes: labels.classes, files },
      (stage) => run.onProgress?.({ percent: 94, stage }),
    );
    run.onProgress?.({ percent: 96, stage: "writing the card" });
    const dropFlagged = given.dropFlagged ?? spec.audit.dropFlagged;
    const variantFiles: ParquetSink[] = [];
    if (dropFlagged && audit.flagged.length > 0) {
      run.onProgress?.({ percent: 95, stage: "writing the splits without the flagged columns" });
      const keep = new Uint8Array(schema.length).fill(1);
      for (const name of audit.flagged) keep[schema.findIndex((c) => c.name === name)] = 0;
      const kept = schema.filter((_, c) => keep[c] === 1);
      for (const split of spec.split.splits) {
        const file = await openParquetFile(path.join(run.outDir, `${split.name}.unflagged.parquet`), kept, {
          createdBy: `tracemill ${TRACEMILL_VERSION}`,
          summaryBytes: 1024,
        });
        variantFiles.push(file);
        created.push(file);
      }
      await routeKept(store, { schema, split: splits.split, files: variantFiles, keep });
    }
    run.signal?.throwIfAborted();
    return await writeCard({
      loaded,
      cardDir: given.cardDir ?? run.outDir,
      outDir: run.outDir,
      schema,
      reads,
      labels,
      splits,
      audit,
      files,
      variantFiles,
    });
  } catch (error) {
    for (const file of created) await file.discard().catch(() => undefined);
    throw error;
  } finally {
    store.close();
  }
}

function keepWindowsOnly(group: Int32Array, campaigns: readonly string[]): void {
  const window = Uint8Array.from(campaigns, (name) => (name.startsWith("schedule:") ? 1 : 0));
  for (let row = 0; row < group.length; row++) {
    if (group[row] >= 0 && window[group[row]] === 0) group[row] = -1;
  }
}

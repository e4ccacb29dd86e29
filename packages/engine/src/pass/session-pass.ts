// The feature CSV of a capture and its run summary, plus optional per-session work beside it (labels, IPT series,
// image rows) in the same pass: what `tracemill extract` writes, and what label, ipt and images build on.
import fs from "node:fs";
import path from "node:path";
import {
  type CapturedPacket,
  type CaptureWarning,
  CellRowBuilder,
  CIC_IDS2017_COLUMNS,
  type Column,
  columnNames,
  columnSchema,
  csvHeaderLine,
  type FlowPacket,
  featureSetsNamed,
  OrderedRows,
  RowBuilder,
  type RowSink,
  type Session,
  TracemillError,
} from "@tracemill/core";
import type { RunOptions } from "../capability.js";
import { givenHash, hashingPlaceFor, InputDigests } from "../hashing/index.js";
import { FileRowSpill, OutputFile, openParquetFile, ROW_MEMORY_BYTES } from "../output/index.js";
import { TRACEMILL_VERSION } from "../version.js";
import { type CheckedFlowOptions, checkedFlowOptions, type FlowOptions } from "./flow-options.js";
import { runFlowPipeline } from "./flow-pipeline.js";
import type { FlowResult } from "./flow-result.js";
import type { EachInput, ReadResult } from "./read-inputs.js";

/**
 * Per-session work beside the features. States are created once per session record and reused. The session given
 * to a hook is valid during the call only (the flow table's one view, FlowTableHooks): keep nothing of it past the
 * call but its values, or state by `session.slot` / `packet.slot`.
 */
export interface SessionHooks<S> {
  /** The state of the record in store slot `slot` (`Session.slot`); records are created in slot order from 0. */
  createState(slot: number): S;
  /** A session starts (reset the state here). */
  onStart(state: S, session: Session): void;
  /**
   * Every packet of the session, the first included, with the captured packet (valid during the call only). No
   * state is passed: loading it would touch the session record on every packet, which the flow table avoids; a hook
   * keeps what it needs per packet in arrays indexed by `packet.slot`.
   */
  onPacket?(session: Session, packet: FlowPacket, captured: CapturedPacket): void;
  /** The session ended: add columns after the features (the row is started and will be ended by the pass). */
  onEnd(state: S, session: Session, row: RowBuilder): void;
}

/** The options of the pass: the session options (idle and active timeouts, packet length), and the digest. */
export interface SessionPassOptions extends FlowOptions {
  /**
   * Take the SHA-256 of each input for the summary (default true). False (`--no-digest`) takes none: the summary's
   * `sha256` is null, with `sha256Note` saying why (for a caller that has the digest or does not need it).
   */
  digest?: boolean;
  /**
   * The rows' format (default "csv"): "parquet" writes a typed Parquet file instead, the run summary in its footer
   * too (docs/formats.md, "Parquet output"); the summary then names the file under `parquet` rather than `csv`.
   */
  format?: OutputFormat;
}

/** The formats the rows can be written in. */
export type OutputFormat = "csv" | "parquet";

/** The summary's entry for the rows' file. */
export interface RowsOutput {
  name: string;
  rows: number;
  columns: number;
}

/** The summary's `sha256Note` of an input hashed on request of none. */
export const NO_DIGEST_NOTE = "no digest taken (--no-digest)";

/**
 * The run summary written beside the CSV or Parquet file (docs/features.md, "Run summary"), which it names under
 * `csv` or `parquet` by the run's format.
 */
export type SessionPassSummary<F extends OutputFormat = "csv"> = SummaryBase &
  (F extends "parquet" ? { parquet: RowsOutput } : { csv: RowsOutput });

/** The run summary but for its entry naming the rows' file. */
export interface SummaryBase {
  tracemill: { version: string };
  /** The capture read; for several (the parts of a split capture, read as one), the first of `inputs`. */
  input: InputSummary;
  /** Present only for several captures: each one, in the order read. */
  inputs?: InputSummary[];
  options: CheckedFlowOptions;
  complete: boolean;
  damage: { offset: number; message: string } | null;
  packets: FlowResult["packets"];
  fragments: FlowResult["fragments"];
  sessions: FlowResult["sessions"];
}

export interface InputSummary {
  name: string;
  bytes: number;
  /** Of the file as stored; null when the run took no digest (SessionPassOptions.digest). */
  sha256: string | null;
  /** Present when `sha256` is null: why. */
  sha256Note?: string;
  format: string;
  /** Present when the reader read past something (docs/formats.md, "Warnings"). */
  warnings?: CaptureWarning[];
}

/** The summary's `input`, and `inputs` when there are several: each input's name, size, digest and format. */
export function inputsSummary(
  captures: readonly string[],
  files: readonly ReadResult[],
  sha256: readonly (string | null)[],
): Pick<SummaryBase, "input" | "inputs"> {
  const inputs = captures.map((file, i) => ({
    name: path.basename(file),
    bytes: files[i].fileBytes,
    sha256: sha256[i],
    ...(sha256[i] === null ? { sha256Note: NO_DIGEST_NOTE } : {}),
    format: files[i].format,
    ...(files[i].warnings.length > 0 ? { warnings: files[i].warnings } : {}),
  }));
  return { input: inputs[0], ...(inputs.length > 1 ? { inputs } : {}) };
}

/** A CSV written into an output file its caller owns (and commits or discards), named `name` in the summary. */
export interface CsvTarget {
  file: OutputFile;
  name: string;
}

/**
 * Rows handed over as typed cells (core's CellRowBuilder), in session start order, to a caller that stores and routes
 * them itself (a dataset build splits them): named `name` in the summary, under `rows`.
 */
export interface CellsTarget {
  cells: RowSink;
  name: string;
}

/**
 * Reads `capture` once and writes one CSV row per session (features, then `extraColumns`) in session start order to
 * `csv`: a path, written under a temporary name renamed when complete, or a caller's file, left open; returns the
 * run summary. With `format: "parquet"` the rows go to a Parquet file at that path instead (a path only), each extra
 * column typed as declared (a bare name is text). A damaged capture still yields the sessions of the packets before
 * the damage, and the summary says `complete: false`. `hooks` is null for the features alone (no hook calls at all on
 * that path).
 */
export async function runSessionPass<S, F extends OutputFormat = "csv">(
  capture: string | readonly string[],
  csvTarget: string | CsvTarget | CellsTarget,
  extraColumns: readonly (string | Column)[],
  hooks: SessionHooks<S> | null,
  options: SessionPassOptions & { format?: F },
  run: Pick<RunOptions, "onProgress" | "signal" | "rowMemoryBytes" | "inputHashes"> & {
    onPackets?: (read: number) => void;
  },
): Promise<SessionPassSummary<F>> {
  const flow = checkedFlowOptions(options);
  const captures = typeof capture === "string" ? [capture] : capture;
  if (captures.length === 0) throw new TracemillError("BAD_OPTION", "no capture to read");
  for (const file of captures) {
    if (!fs.existsSync(file)) throw new TracemillError("NOT_FOUND", `${file}: no such file`, { file });
  }
  const given = captures.map((file) => (options.digest === false ? null : givenHash(run, file)));
  const sets = featureSetsNamed(flow.features);
  // --cic-compat: the names as CIC-IDS2017's header spells them; the caller's extra column is its Label.
  const extras: Column[] = extraColumns.map((column) =>
    typeof column === "string" ? { name: column, type: "string" } : column,
  );
  const columns = [...(flow.cicCompat ? CIC_IDS2017_COLUMNS : columnNames(sets)), ...extras.map((c) => c.name)];
  const parquet = options.format === "parquet";
  if (parquet && flow.cicCompat)
    throw new TracemillError("BAD_OPTION", "--cic-compat writes CIC-IDS2017's CSV: it cannot go with Parquet output");
  if (parquet && typeof csvTarget !== "string")
    throw new TracemillError("BAD_OPTION", "Parquet output is written to a file of its own (extract, label)");
  const cellsTarget = typeof csvTarget !== "string" && "cells" in csvTarget ? csvTarget : null;
  if (cellsTarget !== null && flow.cicCompat)
    throw new TracemillError("BAD_OPTION", "--cic-compat writes CIC-IDS2017's CSV: it cannot go with typed rows");
  // The output first: when it cannot be created, no hashing worker has started (one left running keeps the process
  // alive).
  const owned = typeof csvTarget === "string";
  const target =
    typeof csvTarget === "string" ? csvTarget : "cells" in csvTarget ? csvTarget.name : csvTarget.file.path;
  const table = parquet
    ? await openParquetFile(target, [...columnSchema(sets), ...extras], {
        createdBy: `tracemill ${TRACEMILL_VERSION}`,
        summaryBytes: 4096 * (captures.length + 1),
      })
    : null;
  const csv =
    table !== null || cellsTarget !== null
      ? null
      : typeof csvTarget === "string"
        ? new OutputFile(csvTarget)
        : (csvTarget as CsvTarget).file;
  const digests = new DigestsInTurn(captures, given);
  const spill = new FileRowSpill(`${target}.waiting-rows`);
  let rows = 0;
  /** The hooks' state of each session record, by store slot. */
  const states: S[] = [];
  try {
    csv?.write(new TextEncoder().encode(csvHeaderLine(columns)));
    // Parquet's rows are typed cells, not text (CellRowBuilder): the same values, nothing formatted to be parsed back.
    const row = table !== null || cellsTarget !== null ? new CellRowBuilder() : new RowBuilder();
    const ordered = new OrderedRows(
      table !== null
        ? (bytes, start, end) => table.write(bytes, start, end)
        : cellsTarget !== null
          ? cellsTarget.cells
          : (bytes, start, end) => csv!.write(bytes, start, end),
      { spill, memoryBytes: run.rowMemoryBytes ?? ROW_MEMORY_BYTES },
    );
    const result = await runFlowPipeline(
      capture,
      flow,
      hooks === null
        ? {
            onSessionEnd(session, features) {
              row.start();
              features.write(session, row);
              row.end();
              ordered.put(session.seq, row.bytes, row.length);
              rows++;
            },
          }
        : {
            onSessionStart(session) {
              // A record's first session makes its state: slots are first used in order from 0.
              if (session.slot === states.length) states.push(hooks.createState(session.slot));
              hooks.onStart(states[session.slot], session);
            },
            // Without a packet hook the pipeline skips the call (and the copy of held fragments' bytes) altogether.
            onPacket: hooks.onPacket,
            onSessionEnd(session, features) {
              row.start();
              features.write(session, row);
              hooks.onEnd(states[session.slot], session, row);
              row.end();
              ordered.put(session.seq, row.bytes, row.length);
              rows++;
            },
          },
      { ...run, eachInput: digests.eachInput },
    );
    const name = typeof csvTarget === "string" ? path.basename(csvTarget) : csvTarget.name;
    const entry = { name, rows, columns: columns.length };
    const base: SummaryBase = {
      tracemill: { version: TRACEMILL_VERSION },
      ...inputsSummary(captures, result.files, digests.sha256),
      options: flow,
      complete: result.complete,
      damage: result.damage === null ? null : { offset: result.damage.offset, message: result.damage.message },
      packets: result.packets,
      fragments: result.fragments,
      sessions: result.sessions,
    };
    // F is "parquet" exactly when the table is written (the format option's type).
    const summary = {
      ...base,
      ...(table !== null ? { parquet: entry } : cellsTarget !== null ? { rows: entry } : { csv: entry }),
    } as unknown as SessionPassSummary<F>;
    // The digests were taken before the output's final name: if hashing fails, no output is left without its summary.
    if (table !== null) await table.commit(JSON.stringify(summary));
    else if (owned) await csv!.commit();
    return summary;
  } catch (error) {
    digests.cancel();
    if (table !== null) await table.discard();
    else if (owned) await csv!.discard();
    throw error;
  } finally {
    spill.close();
  }
}

/**
 * The SHA-256 of each input of the pass, one input at a time (a hashing worker each, or the pass's own thread for a
 * small file; its digest taken once its input is read). The reader waits for the hashing rather than run ahead of
 * it: on one core a worker left behind would read the file a second time. An input whose digest is given, or none
 * wanted (null), is not hashed.
 */
class DigestsInTurn {
  readonly sha256: (string | null)[] = [];
  private current: InputDigests | null = null;

  constructor(
    private readonly inputs: readonly string[],
    private readonly given: readonly (string | null | undefined)[],
  ) {}

  readonly eachInput: EachInput = (index) => {
    const given = this.given[index];
    if (given !== undefined) {
      this.sha256[index] = given;
      return undefined;
    }
    const input = this.inputs[index];
    const digests = new InputDigests([input], [undefined], { place: hashingPlaceFor(input), wait: true });
    this.current = digests;
    return {
      tap: digests.tap(0),
      finished: async () => {
        [this.sha256[index]] = await digests.all();
        digests.close();
        this.current = null;
      },
    };
  };

  /** Stops the digest under way, if any. */
  cancel(): void {
    this.current?.close();
  }
}

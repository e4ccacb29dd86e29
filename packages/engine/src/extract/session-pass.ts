// The feature CSV of a capture and its run summary, plus optional per-session work beside it (labels, IPT series,
// image rows) in the same pass: what `tracemill extract` writes, and what label, ipt and images build on.
import fs from "node:fs";
import path from "node:path";
import {
  type CapturedPacket,
  type CaptureWarning,
  csvHeaderLine,
  FEATURE_COLUMNS,
  type FlowPacket,
  OrderedRows,
  RowBuilder,
  type Session,
  TracemillError,
} from "@tracemill/core";
import type { RunOptions } from "../capability.js";
import { givenHash } from "../input-hashes.js";
import { TRACEMILL_VERSION } from "../version.js";
import { InputDigests } from "./file-digest.js";
import { FileRowSpill, ROW_MEMORY_BYTES } from "./file-row-spill.js";
import { checkedFlowOptions } from "./flow-options.js";
import { type FlowOptions, type FlowResult, runFlowPipeline } from "./flow-pipeline.js";
import { OutputFile } from "./output-file.js";
import type { ReadResult } from "./read-capture-file.js";

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

/** The session options of `tracemill extract`: idle and active timeouts, packet length. */
export type SessionPassOptions = FlowOptions;

/** The run summary written beside the CSV (docs/features.md, "Run summary"). */
export type SessionPassSummary = {
  tracemill: { version: string };
  /** The capture read; for several (the parts of a split capture, read as one), the first of `inputs`. */
  input: InputSummary;
  /** Present only for several captures: each one, in the order read. */
  inputs?: InputSummary[];
  options: Required<FlowOptions>;
  complete: boolean;
  damage: { offset: number; message: string } | null;
  packets: FlowResult["packets"];
  fragments: FlowResult["fragments"];
  sessions: FlowResult["sessions"];
  csv: { name: string; rows: number; columns: number };
};

export interface InputSummary {
  name: string;
  bytes: number;
  sha256: string;
  format: string;
  /** Present when the reader read past something (docs/formats.md, "Warnings"). */
  warnings?: CaptureWarning[];
}

/** The summary's `input`, and `inputs` when there are several: each input's name, size, digest and format. */
export function inputsSummary(
  captures: readonly string[],
  files: readonly ReadResult[],
  sha256: readonly string[],
): Pick<SessionPassSummary, "input" | "inputs"> {
  const inputs = captures.map((file, i) => ({
    name: path.basename(file),
    bytes: files[i].fileBytes,
    sha256: sha256[i],
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
 * Reads `capture` once and writes one CSV row per session (features, then `extraColumns`) in session start order to
 * `csv`: a path, written under a temporary name renamed when complete, or a caller's file, left open; returns the
 * run summary. A damaged capture still yields the sessions of the packets before the damage, and the summary says
 * `complete: false`. `hooks` is null for the features alone (no hook calls at all on that path).
 */
export async function runSessionPass<S>(
  capture: string | readonly string[],
  csvTarget: string | CsvTarget,
  extraColumns: readonly string[],
  hooks: SessionHooks<S> | null,
  options: SessionPassOptions,
  run: Pick<RunOptions, "onProgress" | "signal" | "rowMemoryBytes" | "inputHashes"> & {
    onPackets?: (read: number) => void;
  },
): Promise<SessionPassSummary> {
  const flow = checkedFlowOptions(options);
  const captures = typeof capture === "string" ? [capture] : capture;
  if (captures.length === 0) throw new TracemillError("BAD_OPTION", "no capture to read");
  for (const file of captures) {
    if (!fs.existsSync(file)) throw new TracemillError("NOT_FOUND", `${file}: no such file`, { file });
  }
  const given = captures.map((file) => givenHash(run, file));
  // The CSV first: when it cannot be created, no hashing worker has started (one left running keeps the process alive).
  const owned = typeof csvTarget === "string";
  const csv = owned ? new OutputFile(csvTarget) : csvTarget.file;
  const digests = new InputDigests(captures, given);
  const spill = new FileRowSpill(`${csv.path}.waiting-rows`);
  const columns = [...FEATURE_COLUMNS, ...extraColumns];
  let rows = 0;
  /** The hooks' state of each session record, by store slot. */
  const states: S[] = [];
  try {
    csv.write(new TextEncoder().encode(csvHeaderLine(columns)));
    const row = new RowBuilder();
    const ordered = new OrderedRows((bytes, start, end) => csv.write(bytes, start, end), {
      spill,
      memoryBytes: run.rowMemoryBytes ?? ROW_MEMORY_BYTES,
    });
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
    // The digests were taken before the CSV's final name: if hashing fails, no CSV is left without its summary.
    if (owned) await csv.commit();
    return {
      tracemill: { version: TRACEMILL_VERSION },
      ...inputsSummary(captures, result.files, digests.sha256),
      options: flow,
      complete: result.complete,
      damage: result.damage === null ? null : { offset: result.damage.offset, message: result.damage.message },
      packets: result.packets,
      fragments: result.fragments,
      sessions: result.sessions,
      csv: { name: owned ? path.basename(csvTarget) : csvTarget.name, rows, columns: columns.length },
    };
  } catch (error) {
    digests.cancel();
    if (owned) await csv.discard();
    throw error;
  } finally {
    spill.close();
  }
}

// The feature CSV of a capture plus per-session work beside it (labels, IPT series, image rows), in one pass over the
// extract capability's flow pipeline: the same sessions, rows and summary as `tracemill extract`, plus hooks.
import fs from "node:fs";
import path from "node:path";
import {
  type CapturedPacket,
  csvHeaderLine,
  FEATURE_COLUMNS,
  type FlowPacket,
  OrderedRows,
  RowBuilder,
  type Session,
  TracemillError,
} from "@tracemill/core";
import type { RunOptions } from "../capability.js";
import { FileDigest } from "../extract/file-digest.js";
import { type ExtractSummary, type FlowOptions, runFlowPipeline } from "../extract/index.js";
import { OutputFile } from "../extract/output-file.js";
import { TRACEMILL_VERSION } from "../version.js";

/** Per-session work beside the features. States are created once per session record and reused. */
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

/** The extraction's run summary (docs/features.md): input with its SHA-256, options, packets, sessions, CSV. */
export type SessionPassSummary = ExtractSummary;

/** Runs the pass and writes the CSV (features, then `extraColumns`) to `csvPath`, renamed into place when complete. */
export async function runSessionPass<S>(
  capture: string,
  csvPath: string,
  extraColumns: readonly string[],
  hooks: SessionHooks<S>,
  options: SessionPassOptions,
  run: Pick<RunOptions, "onProgress" | "signal">,
): Promise<SessionPassSummary> {
  if (!fs.existsSync(capture)) throw new TracemillError("NOT_FOUND", `${capture}: no such file`, { file: capture });
  const digest = new FileDigest(capture);
  const csv = new OutputFile(csvPath);
  const columns = [...FEATURE_COLUMNS, ...extraColumns];
  const onPacket = hooks.onPacket;
  let rows = 0;
  let slots = 0;
  try {
    csv.write(new TextEncoder().encode(csvHeaderLine(columns)));
    const row = new RowBuilder();
    const ordered = new OrderedRows((bytes, start, end) => csv.write(bytes, start, end));
    const result = await runFlowPipeline<S>(
      capture,
      options,
      {
        createState: () => hooks.createState(slots++),
        onSessionStart: (session) => hooks.onStart(session.state.extra, session),
        // Without a packet hook the pipeline skips the call (and the copy of held fragments' bytes) altogether.
        onPacket,
        onSessionEnd(session, features) {
          row.start();
          features.finish(session.state.features, session, row);
          hooks.onEnd(session.state.extra, session, row);
          row.end();
          ordered.put(session.seq, row.bytes, row.length);
          rows++;
        },
      },
      { ...run, tap: digest.tap },
    );
    await csv.commit();
    return {
      tracemill: { version: TRACEMILL_VERSION },
      input: {
        name: path.basename(capture),
        bytes: result.fileBytes,
        sha256: await digest.result(),
        format: result.format,
      },
      options: {
        idleTimeout: options.idleTimeout ?? 120,
        activeTimeout: options.activeTimeout ?? 1800,
        length: options.length ?? "ip",
      },
      complete: result.complete,
      damage: result.damage === null ? null : { offset: result.damage.offset, message: result.damage.message },
      packets: result.packets,
      fragments: result.fragments,
      sessions: result.sessions,
      csv: { name: path.basename(csvPath), rows, columns: columns.length },
    };
  } catch (error) {
    digest.cancel();
    await csv.discard();
    throw error;
  }
}

// The IPT capability: the feature CSV plus one line of inter-packet times per session, in the CSV's row order.
import path from "node:path";
import { IptLine, IptSeries, OrderedRows } from "@tracemill/core";
import type { CapabilityResult, RunOptions } from "../capability.js";
import { FileRowSpill, OutputFile, ROW_MEMORY_BYTES, writeSummary } from "../output/index.js";
import { cicCompatRefused, runSessionPass, type SessionPassOptions } from "../pass/index.js";

export const IPT_FILE = "ipt.txt";
export const IPT_CSV_FILE = "features.csv";

export interface IptOptions extends SessionPassOptions {
  /** Negative gaps for packets of the session's backward side. */
  signed?: boolean;
}

/** Writes ipt.txt, features.csv and summary.json into `run.outDir`. */
export async function extractIpt(
  capture: string | readonly string[],
  options: IptOptions,
  run: RunOptions,
): Promise<CapabilityResult> {
  if (options.cicCompat) throw cicCompatRefused("ipt");
  const signed = options.signed === true;
  const ipt = new OutputFile(path.join(run.outDir, IPT_FILE));
  const spill = new FileRowSpill(`${ipt.path}.waiting-lines`);
  const lines = new OrderedRows((bytes, start, end) => ipt.write(bytes, start, end), {
    spill,
    memoryBytes: run.rowMemoryBytes ?? ROW_MEMORY_BYTES,
  });
  const line = new IptLine();
  const series = new IptSeries();
  let gaps = 0;
  let count = 0;
  try {
    const pass = await runSessionPass(
      capture,
      path.join(run.outDir, IPT_CSV_FILE),
      [],
      {
        // Gaps are kept by record slot in one store (see IptSeries): the state is just the slot.
        createState: (slot) => slot,
        onStart: (slot) => series.reset(slot),
        onPacket: (_session, packet) => series.add(packet.slot, packet.time, packet.forward),
        onEnd(slot, session) {
          series.write(slot, signed, line);
          gaps += series.gapCount(slot);
          series.end(slot);
          count++;
          lines.put(session.seq, line.bytes, line.length);
        },
      },
      options,
      run,
    );
    await ipt.commit();
    const summary = {
      ...pass,
      options: { ...pass.options, signed },
      ipt: { lines: count, gaps, signed },
    };
    await writeSummary(run.outDir, summary);
    return {
      outputs: [
        { name: IPT_FILE, kind: "ipt-txt" },
        { name: IPT_CSV_FILE, kind: "features-csv" },
        { name: "summary.json", kind: "summary-json" },
      ],
      summary,
    };
  } catch (error) {
    await ipt.discard();
    throw error;
  } finally {
    spill.close();
  }
}

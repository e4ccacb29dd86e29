// tracemill dataset build: many captures, labels from every source, leakage-free splits, the audit and the card, from
// one spec (docs/datasets.md).
import fs from "node:fs";
import path from "node:path";
import { TracemillError } from "@tracemill/core/errors";
import { resultWarnings } from "@tracemill/engine/result-warnings";
import { Command } from "commander";
import { interruptSignal } from "../interrupt.js";
import { counted, refuseOverwriting } from "./capability-output.js";

interface BuildOptions {
  out: string;
  dropFlagged?: boolean;
}

export function datasetCommand(): Command {
  const dataset = new Command("dataset").description("build a labelled, split and audited dataset from a spec");
  dataset
    .command("build")
    .description("build the dataset a spec (YAML or JSON, or a built dataset's dataset.json) describes")
    .argument("<spec>", "the dataset spec: captures, feature sets, labels, split, audit (docs/datasets.md)")
    .option("-o, --out <dir>", "output directory (created when missing)", "dataset")
    .option("--drop-flagged", "also write each split without the columns the leakage audit flags")
    .action(async (specFile: string, options: BuildOptions) => {
      const { buildDataset, loadSpec } = await import("@tracemill/engine/dataset");
      const loaded = await loadSpec(specFile);
      const splitNames = loaded.spec.split.splits.map((s) => s.name);
      const outputs = [
        ...splitNames.flatMap((name) => [`${name}.parquet`, `${name}.unflagged.parquet`]),
        "dataset.json",
        "DATASET.md",
      ].map((name) => path.join(options.out, name));
      refuseOverwriting([specFile], outputs);
      fs.mkdirSync(options.out, { recursive: true });
      if (!fs.statSync(options.out).isDirectory())
        throw new TracemillError("BAD_OPTION", `${options.out} is not a directory`, { file: options.out });
      // Built in a scratch directory inside the output directory, then moved: a build that fails leaves nothing.
      const scratch = await fs.promises.mkdtemp(path.join(options.out, ".tracemill-"));
      try {
        const result = await buildDataset(
          loaded,
          { dropFlagged: options.dropFlagged, cardDir: path.resolve(options.out) },
          { outDir: scratch, signal: interruptSignal() },
        );
        for (const output of result.outputs) {
          await fs.promises.rename(path.join(scratch, output.name), path.join(options.out, output.name));
        }
        report(result.summary, options.out);
      } finally {
        await fs.promises.rm(scratch, { recursive: true, force: true });
      }
    });
  return dataset;
}

function report(summary: Record<string, unknown>, out: string): void {
  const built = summary as {
    rows: number;
    classes: Record<string, number>;
    splits: { name: string; rows: number }[];
    audit: { flagged: string[] };
    caveats: string[];
    inputs: { name: string; complete: boolean }[];
  };
  const classes = Object.entries(built.classes)
    .map(([name, count]) => `${name} ${count}`)
    .join(", ");
  const splits = built.splits.map((s) => `${s.name} ${s.rows}`).join(", ");
  process.stderr.write(
    `${counted(built.rows, "session")} (${classes}); splits: ${splits}; audit: ${counted(built.audit.flagged.length, "column")} flagged\n` +
      `${path.join(out, "DATASET.md")}\n`,
  );
  // What makes the result suspect warns, as for every command; the card lists every caveat.
  for (const warning of resultWarnings(summary)) process.stderr.write(`tracemill: warning: ${warning.message}\n`);
  if (built.caveats.length > 0) {
    process.stderr.write(`tracemill: note: DATASET.md lists ${counted(built.caveats.length, "caveat")}\n`);
  }
  if (built.inputs.some((input) => !input.complete)) process.exitCode = 1;
}

// tracemill extract: the session feature CSV of a capture (docs/features.md), with its run summary.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { TracemillError } from "@tracemill/core";
import type { ExtractSummary } from "@tracemill/engine/extract";
import type { SingleBar } from "cli-progress";
import { Command, Option } from "commander";
import { interruptSignal } from "../interrupt.js";
import {
  addSessionOptions,
  CAPTURES_HELP,
  capturesArgument,
  counted,
  damagedCapture,
  heldBefore,
  outputFileOption,
  refuseOverwriting,
  reportDamage,
  reportResultWarnings,
  type SessionCommandOptions,
  sessionOptions,
  withExtension,
} from "./capability-output.js";

interface ExtractCommandOptions extends SessionCommandOptions {
  output?: string;
  summary?: string;
  format: "csv" | "parquet";
}

export function extractCommand(): Command {
  const command = new Command("extract")
    .description("write one CSV row of 50 features per TCP/UDP session (to standard output without -o)")
    .argument("<capture...>", CAPTURES_HELP, capturesArgument)
    .option("-o, --output <file>", "CSV file (its run summary goes beside it as <name>.summary.json)", outputFileOption)
    .option("--summary <file>", "run summary (JSON) file", outputFileOption)
    .addOption(
      new Option("--format <format>", "rows as CSV or as a typed Parquet file (which needs -o)")
        .choices(["csv", "parquet"])
        .default("csv"),
    );
  return addSessionOptions(command).action(async (captures: string[], options: ExtractCommandOptions) => {
    const toStdout = options.output === undefined;
    if (toStdout && options.format === "parquet")
      throw new TracemillError(
        "BAD_OPTION",
        "--format parquet needs -o <file>: Parquet is not written to standard output",
      );
    if (!toStdout || options.summary) refuseOverwriting(captures, [options.output, options.summary]);
    const scratch = toStdout ? await fs.promises.mkdtemp(path.join(os.tmpdir(), "tracemill-extract-")) : undefined;
    const csvPath = toStdout ? path.join(scratch!, "features.csv") : path.resolve(options.output!);
    const summaryPath =
      options.summary ?? (toStdout ? path.join(scratch!, "summary.json") : withExtension(csvPath, ".summary.json"));
    // A pipe's size is known only at its end: its bar shows the rate alone.
    const sized = captures.every((file) => fs.statSync(file, { throwIfNoEntry: false })?.isFile() ?? true);
    const bar = process.stderr.isTTY ? await progressBar(sized) : undefined;
    try {
      const { extractFeatures } = await import("@tracemill/engine/extract");
      const { summary } = await extractFeatures(captures, {
        ...sessionOptions(options),
        outDir: path.dirname(csvPath),
        csvPath,
        format: options.format,
        summaryPath: path.resolve(summaryPath),
        signal: interruptSignal(),
        onProgress: bar && ((progress) => bar.update(Math.floor(progress.percent * 10))),
        onPackets: bar && trackRate(bar),
      });
      bar?.update(1000);
      bar?.stop();
      if (toStdout) await pipeline(fs.createReadStream(csvPath), process.stdout, { end: false });
      if (bar) process.stderr.write(describe(summary, toStdout ? undefined : csvPath));
      await reportResultWarnings({ ...summary }, toStdout && !options.summary ? undefined : path.resolve(summaryPath));
      const { csv, parquet } = summary as { csv?: { rows: number }; parquet?: { rows: number } };
      reportDamage(
        damagedCapture(captures, { ...summary }),
        { ...summary },
        `the ${csv ? "CSV" : "Parquet file"} holds the ${counted((csv ?? parquet)!.rows, "session")} ${heldBefore(captures)}`,
      );
    } finally {
      bar?.stop();
      if (scratch) await fs.promises.rm(scratch, { recursive: true, force: true });
    }
  });
}

/** The bar's module is loaded only here: every command's start-up would otherwise pay for it. */
async function progressBar(sized: boolean): Promise<SingleBar> {
  const { SingleBar } = await import("cli-progress");
  const bar = new SingleBar({
    format: sized
      ? "extracting [{bar}] {percentage}% | {rate} packets/s | ETA {eta_formatted}"
      : "extracting from a pipe | {rate} packets/s",
    stream: process.stderr,
    hideCursor: true,
    etaBuffer: 50,
  });
  bar.start(1000, 0, { rate: "-" });
  return bar;
}

/** Packets per second over the run so far, shown beside the bar. */
function trackRate(bar: SingleBar): (read: number) => void {
  const started = process.hrtime.bigint();
  return (read) => {
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    if (seconds > 0) bar.update({ rate: Math.round(read / seconds).toLocaleString("en-US") });
  };
}

function describe(summary: ExtractSummary<"csv" | "parquet">, csv: string | undefined): string {
  const { packets, sessions } = summary;
  const where = csv === undefined ? "" : ` → ${csv}`;
  return `${counted(sessions.total, "session")} from ${packets.decoded} of ${counted(packets.read, "packet")}${where}\n`;
}

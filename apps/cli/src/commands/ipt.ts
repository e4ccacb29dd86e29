// tracemill ipt: inter-packet time series, one line per session, beside the feature CSV (docs/formats.md, "IPT time series").
import { Command } from "commander";
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
  runIntoFiles,
  type SessionCommandOptions,
  sessionOptions,
  withExtension,
} from "./capability-output.js";

interface IptCommandOptions extends SessionCommandOptions {
  output: string;
  csv?: string;
  signed?: boolean;
  summary?: string;
}

export function iptCommand(): Command {
  const command = new Command("ipt")
    .description("write the inter-packet times of every session (one line per CSV row) and the feature CSV")
    .argument("<capture...>", CAPTURES_HELP, capturesArgument)
    .option("-o, --output <file>", "IPT text file", outputFileOption, "ipt.txt")
    .option("--csv <file>", "feature CSV (default: the output's name with .csv)", outputFileOption)
    .option("--signed", "negative gaps for packets of the session's backward side")
    .option("--summary <file>", "also write the run summary (JSON)", outputFileOption);
  return addSessionOptions(command).action(async (captures: string[], options: IptCommandOptions) => {
    const { extractIpt, IPT_CSV_FILE, IPT_FILE } = await import("@tracemill/engine/ipt");
    const csv = options.csv ?? withExtension(options.output, ".csv");
    refuseOverwriting(captures, [options.output, csv, options.summary]);
    const result = await runIntoFiles(
      options.output,
      (run) => extractIpt(captures, { ...sessionOptions(options), signed: options.signed }, run),
      () => ({ [IPT_FILE]: options.output, [IPT_CSV_FILE]: csv, "summary.json": options.summary }),
    );
    const ipt = result.summary.ipt as { lines: number; gaps: number };
    process.stderr.write(`${counted(ipt.lines, "session")}, ${counted(ipt.gaps, "gap")}: ${options.output}, ${csv}\n`);
    await reportResultWarnings(result.summary, options.summary);
    reportDamage(
      damagedCapture(captures, result.summary),
      result.summary,
      `the series and the CSV hold the ${counted(ipt.lines, "session")} ${heldBefore(captures)}`,
    );
  });
}

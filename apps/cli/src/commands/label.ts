// tracemill label: the feature CSV with labels: binary from an attack capture or a merge's provenance record, or
// classes from IDS alerts (docs/formats.md, "Labelled datasets").
import { Command, Option } from "commander";
import {
  addSessionOptions,
  CAPTURES_HELP,
  capturesArgument,
  counted,
  damagedCapture,
  heldBefore,
  numberOption,
  outputFileOption,
  printLabelWarnings,
  refuseOverwriting,
  reportDamage,
  reportResultWarnings,
  runIntoFiles,
  type SessionCommandOptions,
  sessionOptions,
  withExtension,
} from "./capability-output.js";

interface LabelCommandOptions extends SessionCommandOptions {
  attacks?: string;
  alerts?: string;
  classification?: string;
  maxPriority?: number;
  tolerance?: number;
  provenance?: string | false;
  output?: string;
  summary?: string;
  format: "csv" | "parquet";
}

/** Unmatched alerts printed on the terminal; the summary file lists them all. */
const SHOWN_ALERTS = 20;

export function labelCommand(): Command {
  const command = new Command("label")
    .description("label every session: binary (--attacks, or a merge's provenance record) or by alert class (--alerts)")
    .argument("<capture...>", CAPTURES_HELP, capturesArgument)
    .option("--attacks <capture>", "capture holding the attacks: sessions with the same 5-tuple are labelled 1")
    .option("--alerts <file>", "unified2 or Suricata EVE JSON alerts: sessions get the class of their alerts")
    .option(
      "--classification <file>",
      "classification.config naming the alerts' classtypes (default: Suricata's, bundled)",
    )
    .option(
      "--max-priority <p>",
      "ignore alerts whose priority number is above p",
      numberOption("a whole number ≥ 1", (v) => Number.isInteger(v) && v >= 1),
    )
    .option(
      "--tolerance <s>",
      "seconds an alert may lie outside its session (default 1)",
      numberOption("a number ≥ 0", (v) => v >= 0),
    )
    .option("--provenance <file>", "merge provenance record (default: <capture stem>.provenance.jsonl if present)")
    .option("--no-provenance", "label by 5-tuples even when a provenance record is beside the capture")
    .option(
      "-o, --output <file>",
      "labelled CSV (default labelled.csv, or classified.csv with --alerts; .parquet with --format parquet)",
      outputFileOption,
    )
    .option("--summary <file>", "also write the run summary (JSON)", outputFileOption)
    .addOption(
      new Option("--format <format>", "rows as CSV or as a typed Parquet file")
        .choices(["csv", "parquet"])
        .default("csv"),
    );
  return addSessionOptions(command).action(async (captures: string[], options: LabelCommandOptions) => {
    const { CLASSIFIED_CSV_FILE, LABELLED_CSV_FILE, labelCapture } = await import("@tracemill/engine/label");
    const defaultName = options.alerts ? CLASSIFIED_CSV_FILE : LABELLED_CSV_FILE;
    const output =
      options.output ?? (options.format === "parquet" ? withExtension(defaultName, ".parquet") : defaultName);
    const inputs = [...captures, options.attacks, options.alerts, options.classification, options.provenance];
    refuseOverwriting(inputs, [output, options.summary]);
    const result = await runIntoFiles(
      output,
      (run) =>
        labelCapture(
          captures,
          {
            ...sessionOptions(options),
            attacks: options.attacks,
            alerts: options.alerts,
            classification: options.classification,
            maxPriority: options.maxPriority,
            tolerance: options.tolerance,
            provenance: options.provenance,
            format: options.format,
          },
          run,
        ),
      (r) => ({ [r.outputs[0].name]: output, "summary.json": options.summary }),
    );
    process.stderr.write(describe(result.summary.labels as LabelSummary, output));
    printLabelWarnings(result.summary);
    await reportResultWarnings(result.summary, options.summary);
    const { csv, parquet } = result.summary as { csv?: { rows: number }; parquet?: { rows: number } };
    reportDamage(
      damagedCapture(captures, result.summary),
      result.summary,
      `the labelled ${csv ? "CSV" : "Parquet file"} holds the ${counted((csv ?? parquet)!.rows, "session")} ${heldBefore(captures)}`,
    );
  });
}

interface LabelSummary {
  method: "provenance" | "tuples" | "alerts";
  sessions: Record<string, number>;
  provenanceFile?: string;
  attackFile?: string;
  alertFile?: string;
  classes?: Record<string, number>;
  alertsRead?: number;
  ignoredByPriority?: number;
  matchedAlerts?: number;
  unmatchedAlerts?: number;
  unmatched?: {
    time: string;
    protocol: number;
    src: string;
    srcPort: number;
    dst: string;
    dstPort: number;
    signature: string;
    priority: number;
    class: string;
  }[];
}

function describe(labels: LabelSummary, output: string): string {
  const how =
    labels.method === "provenance"
      ? `provenance record ${labels.provenanceFile} (exact)`
      : labels.method === "tuples"
        ? `5-tuples of ${labels.attackFile}`
        : `alerts of ${labels.alertFile}`;
  const total = labels.sessions["0"] + labels.sessions["1"];
  let text = `${counted(total, "session")} labelled by ${how}: ${labels.sessions["1"]} labelled 1, ${labels.sessions["0"]} labelled 0 → ${output}\n`;
  if (labels.method !== "alerts") return text;
  const classes = Object.entries(labels.classes ?? {}).sort((a, b) => b[1] - a[1]);
  text += `classes: ${classes.map(([name, count]) => `${name} ${count}`).join(", ")}\n`;
  text += `alerts: ${labels.alertsRead} read, ${labels.ignoredByPriority} above the maximum priority, ${labels.matchedAlerts} matched, ${labels.unmatchedAlerts} matched no session\n`;
  for (const a of (labels.unmatched ?? []).slice(0, SHOWN_ALERTS)) {
    text += `  unmatched: ${a.time} proto ${a.protocol} ${a.src}:${a.srcPort} → ${a.dst}:${a.dstPort} sig ${a.signature} priority ${a.priority} ${a.class}\n`;
  }
  if ((labels.unmatchedAlerts ?? 0) > SHOWN_ALERTS)
    text += `  … all ${labels.unmatchedAlerts} are listed in the summary (--summary)\n`;
  return text;
}

// tracemill images: sessions as rows of 280 grayscale pixels, n per PNG, zipped with a manifest and the feature CSV.
import { Command } from "commander";
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
} from "./capability-output.js";

interface ImagesCommandOptions extends SessionCommandOptions {
  flowsPerImage: number;
  output: string;
  keepAddresses?: boolean;
  attacks?: string;
  alerts?: string;
  classification?: string;
  summary?: string;
}

export function imagesCommand(): Command {
  const command = new Command("images")
    .description("turn every session into a 280-byte grayscale row, n rows per PNG, zipped with a manifest and the CSV")
    .argument("<capture...>", CAPTURES_HELP, capturesArgument)
    .option(
      "-n, --flows-per-image <n>",
      "sessions (rows) per image",
      numberOption("a whole number ≥ 1", (v) => Number.isInteger(v) && v >= 1),
      // The web application's default (contracts' imagesParams), so that both make the same images unasked.
      16,
    )
    .option("-o, --output <file>", "zip file", outputFileOption, "images.zip")
    .option("--keep-addresses", "keep IP addresses and ports in the rows (zeroed by default)")
    .option("--attacks <capture>", "add binary labels to the manifest and CSV (as tracemill label --attacks)")
    .option("--alerts <file>", "add alert classes to the manifest and CSV (as tracemill label --alerts)")
    .option(
      "--classification <file>",
      "classification.config naming the alerts' classtypes (default: Suricata's, bundled)",
    )
    .option("--summary <file>", "also write the run summary (JSON)", outputFileOption);
  return addSessionOptions(command).action(async (captures: string[], options: ImagesCommandOptions) => {
    const { extractImages, IMAGES_ZIP_FILE } = await import("@tracemill/engine/images");
    const inputs = [...captures, options.attacks, options.alerts, options.classification];
    refuseOverwriting(inputs, [options.output, options.summary]);
    const result = await runIntoFiles(
      options.output,
      (run) =>
        extractImages(
          captures,
          {
            ...sessionOptions(options),
            flowsPerImage: options.flowsPerImage,
            keepAddresses: options.keepAddresses,
            attacks: options.attacks,
            alerts: options.alerts,
            classification: options.classification,
          },
          run,
        ),
      () => ({ [IMAGES_ZIP_FILE]: options.output, "summary.json": options.summary }),
    );
    const images = result.summary.images as { images: number; rows: number };
    process.stderr.write(
      `${counted(images.rows, "session")} in ${counted(images.images, "image")}: ${options.output}\n`,
    );
    printLabelWarnings(result.summary);
    await reportResultWarnings(result.summary, options.summary);
    reportDamage(
      damagedCapture(captures, result.summary),
      result.summary,
      `the images and their CSV hold the ${counted(images.rows, "session")} ${heldBefore(captures)}`,
    );
  });
}

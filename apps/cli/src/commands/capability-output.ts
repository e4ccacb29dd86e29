// Runs a capability into a scratch directory beside the requested output and moves its files to the names the user
// chose: the engine writes fixed names into an empty directory, the command line lets users name files.
import fs from "node:fs";
import path from "node:path";
import { TracemillError } from "@tracemill/core/errors";
import { MAX_ACTIVE_TIMEOUT_SEC, MAX_IDLE_TIMEOUT_SEC } from "@tracemill/core/flow";
import type { CapabilityResult, RunOptions } from "@tracemill/engine";
import { resultWarnings, withResultWarnings } from "@tracemill/engine/result-warnings";
import { type Command, InvalidArgumentError } from "commander";
import { interruptSignal } from "../interrupt.js";

/** Output file name in the capability's directory → where the user wants it (undefined: not kept). */
export type OutputPlacement = Record<string, string | undefined>;

export async function runIntoFiles(
  anchor: string,
  run: (options: RunOptions) => Promise<CapabilityResult>,
  placement: (result: CapabilityResult) => OutputPlacement,
): Promise<CapabilityResult> {
  // A default output name needs the same check as a given one (commander parses only given values).
  checkOutputFile(anchor, (message) => new TracemillError("BAD_OPTION", message, { file: anchor }));
  // Same directory as the target, so the final rename never crosses file systems.
  const outDir = await fs.promises.mkdtemp(path.join(path.dirname(path.resolve(anchor)), ".tracemill-"));
  try {
    const result = await run({ outDir, signal: interruptSignal() });
    for (const [name, target] of Object.entries(placement(result))) {
      if (target) await fs.promises.rename(path.join(outDir, name), path.resolve(target));
    }
    return result;
  } finally {
    await fs.promises.rm(outDir, { recursive: true, force: true });
  }
}

/**
 * A capability whose capture was damaged keeps what it made of the packets before the damage (its outputs are in
 * place) and says so: exit status 1 with the damage's message (which names the file, byte offset and reason) and
 * what the outputs hold. Complete runs pass.
 */
export function reportDamage(capture: string, summary: Record<string, unknown>, held: string): void {
  printInputWarnings(capture, summary);
  if (summary.complete !== false) return;
  const damage = summary.damage as { message: string; offset: number } | null;
  // The capabilities' damage messages name the file already; one that does not gets it here.
  const message = damage?.message ?? "damaged capture";
  const named = message.startsWith(`${capture}: `) ? message : `${capture}: ${message}`;
  throw new TracemillError("DAMAGED_INPUT", `${named}; ${held}`, {
    file: capture,
    offset: damage?.offset,
  });
}

interface InputWarning {
  count: number;
  message: string;
}

/**
 * Prints what the reader read past (carried timestamps, a capture without packets), one line each: the summary's
 * `input`/`inputs` warnings, or a sanitize summary's `warnings`.
 */
function printInputWarnings(capture: string, summary: Record<string, unknown>): void {
  type Input = { name?: string; warnings?: InputWarning[] };
  const inputs = (summary.inputs as Input[] | undefined) ?? [
    (summary.input as Input | undefined) ?? { name: capture, warnings: summary.warnings as InputWarning[] | undefined },
  ];
  for (const input of inputs) {
    for (const w of input.warnings ?? []) {
      const more = w.count > 1 ? ` (${w.count} records)` : "";
      process.stderr.write(`tracemill: warning: ${input.name ?? capture}: ${w.message}${more}\n`);
    }
  }
}

/**
 * Prints what is suspect about the result (0 alerts matched, a single class, …: engine/result-warnings), one line each
 * after the command's summary line, and lists it in the summary file when one was written, as a server job's does.
 * A damaged input is not repeated here: reportDamage's error says it.
 */
export async function reportResultWarnings(summary: Record<string, unknown>, summaryFile?: string): Promise<void> {
  const warnings = resultWarnings(summary);
  for (const warning of warnings) {
    if (warning.code !== "input-damaged") process.stderr.write(`tracemill: warning: ${warning.message}\n`);
  }
  if (warnings.length === 0 || summaryFile === undefined || !fs.existsSync(summaryFile)) return;
  const written = withResultWarnings(JSON.parse(await fs.promises.readFile(summaryFile, "utf8")));
  await fs.promises.writeFile(summaryFile, `${JSON.stringify(written, null, 2)}\n`);
}

/** Prints the labels' warnings (alert file entries skipped and counted), one line each. */
export function printLabelWarnings(summary: Record<string, unknown>): void {
  const labels = summary.labels as { warnings?: string[] } | undefined;
  for (const warning of labels?.warnings ?? []) process.stderr.write(`tracemill: warning: ${warning}\n`);
}

/** "1 session", "2 sessions". */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/** The capture argument of the commands that read their capture once: "-" is standard input (a pipe). */
export const CAPTURE_HELP =
  'capture file (pcap, pcapng, ERF; gzip-compressed too), or "-" to read a pipe on standard input';

/** Parses a capture argument: "-" reads standard input (the engine reads /dev/stdin as any pipe). */
export function captureArgument(text: string): string {
  return text === "-" ? "/dev/stdin" : text;
}

/** The variadic capture argument of the commands that read the parts of a split capture as one. */
export const CAPTURES_HELP = `${CAPTURE_HELP}; several are the parts of one split capture, read in the order given as one`;

/** Parses each value of a variadic capture argument (commander passes the values parsed so far). */
export function capturesArgument(text: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), captureArgument(text)];
}

/** The capture a damage message is about (it starts with that capture's name), else the first. */
export function damagedCapture(captures: readonly string[], summary: Record<string, unknown>): string {
  const message = (summary.damage as { message?: string } | null)?.message ?? "";
  return captures.find((file) => message.startsWith(`${file}: `)) ?? captures[0];
}

/** "before it", and for several captures "before it and of the other captures": what the outputs hold. */
export function heldBefore(captures: readonly string[]): string {
  return captures.length === 1 ? "of the packets before it" : "of the packets before it and of the other captures";
}

/**
 * Refuses, before any work, an output that is one of the inputs (the finished output would replace the file it was
 * made from) or that two outputs share. The same file is the same path, or the same file reached another way (a link,
 * standard input redirected from it).
 */
export function refuseOverwriting(inputs: (string | false | undefined)[], outputs: (string | undefined)[]): void {
  const given = outputs.filter((output): output is string => output !== undefined);
  given.forEach((output, i) => {
    for (const input of inputs) {
      if (input && sameFile(input, output)) {
        const what = path.resolve(input) === path.resolve(output) ? "an input" : `the same file as the input ${input}`;
        throw new TracemillError("BAD_OPTION", `${output} is ${what}: give the output another name`, { file: output });
      }
    }
    const twice = given.slice(0, i).find((earlier) => sameFile(earlier, output));
    if (twice !== undefined) {
      throw new TracemillError("BAD_OPTION", `${output} is given for two outputs: give each its own name`, {
        file: output,
      });
    }
  });
}

function sameFile(a: string, b: string): boolean {
  if (path.resolve(a) === path.resolve(b)) return true;
  const first = statOf(a);
  const second = statOf(b);
  return first !== undefined && second !== undefined && first.dev === second.dev && first.ino === second.ino;
}

/** The file's status; undefined when it cannot be had (missing, a file used as a directory, no permission), which
 * the command that reads or writes it reports with its reason. */
function statOf(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file, { throwIfNoEntry: false });
  } catch {
    return undefined;
  }
}

/** `name` with its extension replaced: "out/ipt.txt" → "out/ipt.csv". */
export function withExtension(file: string, extension: string): string {
  const parsed = path.parse(file);
  return path.join(parsed.dir, `${parsed.name}${extension}`);
}

/**
 * Parses an output file option for commander. An existing directory, or a file in a directory that does not exist,
 * is a usage error (exit 2) before any work: found only when the finished output is moved into place, it cost the
 * whole run and read as an internal error.
 */
export function outputFileOption(text: string): string {
  checkOutputFile(text, (message) => new InvalidArgumentError(message));
  return text;
}

/** Throws `fail(reason)` when `file` cannot be an output file: an existing directory, or in a missing directory. */
export function checkOutputFile(file: string, fail: (message: string) => Error): void {
  const resolved = path.resolve(file);
  if (statOf(resolved)?.isDirectory()) throw fail(`${file} is a directory: give a file name`);
  if (!statOf(path.dirname(resolved))?.isDirectory()) throw fail(`${path.dirname(file)} is not an existing directory`);
}

/** Parses a number option for commander; a bad value is a usage error (exit 2). */
export function numberOption(what: string, check: (value: number) => boolean = Number.isFinite) {
  return (text: string): number => {
    const value = Number(text);
    if (text.trim() === "" || !check(value)) throw new InvalidArgumentError(`${what} expected, got "${text}"`);
    return value;
  };
}

/** The session options every command that runs the pass (extract, label, ipt, images) shares. */
export function addSessionOptions(command: Command): Command {
  return command
    .option(
      "--features <sets>",
      "feature sets whose columns follow the session key, comma-separated, in that order (default tracemill; " +
        "docs/features/ describes each)",
      featuresOption,
    )
    .option(
      "--idle-timeout <s>",
      "idle timeout in seconds (default 120)",
      numberOption(`a positive number up to ${MAX_IDLE_TIMEOUT_SEC}`, (v) => v > 0 && v <= MAX_IDLE_TIMEOUT_SEC),
    )
    .option(
      "--active-timeout <s>",
      "active timeout in seconds (default 1800)",
      numberOption(`a positive number up to ${MAX_ACTIVE_TIMEOUT_SEC}`, (v) => v > 0 && v <= MAX_ACTIVE_TIMEOUT_SEC),
    )
    .option("--length <mode>", "packet length: ip (IP header's length, default) or frame", lengthOption)
    .option(
      "--splt <n>",
      "packets in the nfstream set's early-packet sequences, 0 to 255 (default 32)",
      numberOption("a whole number from 0 to 255", (v) => Number.isInteger(v) && v >= 0 && v <= 255),
    )
    .option(
      "--cic-compat",
      "with --features cic alone: rows exactly as CIC-IDS2017's CSVs (Flow ID, its header, a Label; extract and label)",
    )
    .option("--no-digest", "take no SHA-256 of the input (the summary's sha256 is then null)");
}

export interface SessionCommandOptions {
  features?: string[];
  idleTimeout?: number;
  activeTimeout?: number;
  length?: "ip" | "frame";
  splt?: number;
  cicCompat?: boolean;
  /** False with --no-digest. */
  digest?: boolean;
}

/** The shared session options as the engine takes them. */
export function sessionOptions(options: SessionCommandOptions): SessionCommandOptions {
  return {
    features: options.features,
    idleTimeout: options.idleTimeout,
    activeTimeout: options.activeTimeout,
    length: options.length,
    splt: options.splt,
    cicCompat: options.cicCompat,
    digest: options.digest,
  };
}

/**
 * Parses --features: names separated by commas. Which names exist is the engine's to say (a one-line error listing
 * them), so that the command's start loads no feature code.
 */
function featuresOption(text: string): string[] {
  const names = text.split(",").map((name) => name.trim());
  if (names.some((name) => !/^[a-z0-9][a-z0-9-]*$/.test(name))) {
    throw new InvalidArgumentError(`feature set names separated by commas expected, got "${text}"`);
  }
  return names;
}

function lengthOption(text: string): "ip" | "frame" {
  if (text !== "ip" && text !== "frame") throw new InvalidArgumentError(`ip or frame expected, got "${text}"`);
  return text;
}

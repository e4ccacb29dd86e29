// One offline Suricata run over a capture with Tracemill's generated configuration, in a directory of its own.
import fs from "node:fs/promises";
import path from "node:path";
import { type LineHandler, LineTail } from "./line-tail.js";
import { runSuricataProcess, type SuricataProcessOptions } from "./run-suricata.js";
import { eveAlertsFile, eveFlowsFile, suricataConfig } from "./suricata-config.js";

export interface SuricataRunSetup extends SuricataProcessOptions {
  ruleFiles: string[];
  classificationFile: string;
  homeNet: string;
  externalNet: string;
  /** Suricata's run mode: "single" (one thread, the default: reproducible order) or "autofp" (all cores). */
  runmode: "single" | "autofp";
}

export interface SuricataRun {
  /** EVE alerts. */
  eveFile: string;
  /** EVE flow records. */
  flowsFile: string;
  /** Wall-clock time of the Suricata process, in seconds. */
  seconds: number;
  /** Suricata's version as it printed it ("7.0.10"); "" when it did not. */
  version: string;
  /** Rules Suricata could not load (it goes on without them and says so). */
  ruleErrors: string[];
}

/** Runs Suricata on `capture`, writing into `workDir` (created; the caller removes it). */
export async function runSuricataOnCapture(
  capture: string,
  setup: SuricataRunSetup,
  workDir: string,
  onEveLine?: LineHandler,
  onFlowLine?: LineHandler,
): Promise<SuricataRun> {
  await fs.mkdir(workDir, { recursive: true });
  const config = path.join(workDir, "suricata.yaml");
  await fs.writeFile(config, suricataConfig({ logDir: workDir, ...setup }));
  const started = performance.now();
  // EVE lines are handled while Suricata runs (on another core), not all after it.
  const tails: LineTail[] = [];
  if (onEveLine) tails.push(new LineTail(path.join(workDir, eveAlertsFile), onEveLine));
  if (onFlowLine) tails.push(new LineTail(path.join(workDir, eveFlowsFile), onFlowLine));
  let polling: Promise<void> = Promise.resolve();
  let tailError: unknown;
  const timer = setInterval(() => {
    polling = polling
      .then(async () => {
        for (const tail of tails) await tail.poll();
      })
      .catch((error: unknown) => {
        tailError ??= error;
      });
  }, 250);
  let output: Awaited<ReturnType<typeof runSuricataProcess>>;
  let seconds: number;
  try {
    try {
      output = await runSuricataProcess(
        ["-r", capture, "-c", config, "-l", workDir, "-k", "none", "--runmode", setup.runmode],
        setup,
      );
    } finally {
      clearInterval(timer);
      await polling;
    }
    seconds = (performance.now() - started) / 1000;
    if (tailError === undefined) for (const tail of tails) await tail.finish();
  } finally {
    // Whatever failed (Suricata, a line handler), no tail keeps its file open.
    for (const tail of tails) await tail.close();
  }
  if (tailError !== undefined) throw tailError;
  const text = `${output.stdout}\n${output.stderr}`;
  return {
    eveFile: path.join(workDir, eveAlertsFile),
    flowsFile: path.join(workDir, eveFlowsFile),
    seconds,
    version: /Suricata version (\S+)/.exec(text)?.[1] ?? "",
    ruleErrors: ruleErrorLines(text),
  };
}

/**
 * Suricata's lines about rules it could not parse. Suricata cuts a log line at 2047 characters: a long rule's line may
 * end inside the rule file's path, which no path rewriting would then recognise, so such a line stops before the path.
 */
export function ruleErrorLines(text: string): string[] {
  return text
    .split("\n")
    .filter((line) => /^(E|Error): detect: error parsing signature/.test(line))
    .map((line) => {
      if (/ from file .+ at line \d+$/.test(line)) return line;
      const cut = line.indexOf(" from file ");
      return cut < 0 ? line : `${line.slice(0, cut)} (the rest of Suricata's line, with the rule file, was cut)`;
    });
}

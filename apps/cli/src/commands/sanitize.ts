// tracemill sanitize: Suricata over a capture, split into clean and attack captures (docs/formats.md, "Sanitization and alerts").
import fs from "node:fs";
import path from "node:path";
import { TracemillError } from "@tracemill/core/errors";
import { Command } from "commander";
import { interruptSignal } from "../interrupt.js";
import {
  captureArgument,
  counted,
  refuseOverwriting,
  reportDamage,
  reportResultWarnings,
} from "./capability-output.js";

interface SanitizeCommandOptions {
  rules: string[];
  ruleset?: string;
  classification?: string;
  minSeverity?: string;
  out: string;
  verifyPasses: string;
  suricata?: string;
  suricataSocket?: string;
  timeout?: string;
  runmode: string;
}

export function sanitizeCommand(): Command {
  return new Command("sanitize")
    .description("run Suricata on a capture and split it into clean and attack captures, with alerts.u2 and eve.json")
    .argument("<capture>", "capture file (pcap, pcapng, ERF; optionally gzip-compressed)", captureArgument)
    .option("--rules <file>", "a Suricata rules file (repeat for several; default: the bundled ruleset)", collect, [])
    .option("--ruleset <dir-or-name>", "a ruleset directory, or the name of one under rules/ (default: default)")
    .option("--classification <file>", "classification.config (default: the ruleset's, else Suricata's own)")
    .option(
      "--min-severity <n>",
      "only alerts of priority ≤ n make a session an attack (1 is the most severe; default: all)",
    )
    .option("-o, --out <dir>", "output directory (created when missing)", "sanitized")
    .option("--verify-passes <n>", "Suricata runs over the clean capture that move still-alerting sessions", "2")
    .option("--suricata <path>", "the suricata program (env TRACEMILL_SURICATA; default: suricata on the PATH)")
    .option("--timeout <seconds>", "stop a Suricata run after this long (default 7200)")
    .option("--runmode <mode>", "Suricata run mode: single or autofp", "single")
    .option(
      "--suricata-socket <path>",
      "scan with the Suricata of `tracemill suricata serve` at this socket when it holds this run's rules (env TRACEMILL_SURICATA_SOCKET)",
    )
    .action(async (capture: string, options: SanitizeCommandOptions) => {
      checkRunmode(options.runmode);
      // The outputs' names in --out (engine/sanitize writes these).
      const outputs = ["clean", "attacks"].flatMap((name) => [`${name}.pcap`, `${name}.pcapng`]);
      outputs.push("alerts.u2", "eve.json", "summary.json");
      refuseOverwriting(
        [capture, ...options.rules, options.classification],
        outputs.map((name) => path.join(options.out, name)),
      );
      const { sanitize } = await import("@tracemill/engine/sanitize");
      fs.mkdirSync(options.out, { recursive: true });
      const ruleset = options.ruleset ? await rulesetDir(options.ruleset) : undefined;
      const socket = options.suricataSocket || process.env.TRACEMILL_SURICATA_SOCKET || undefined;
      const daemons = socket ? (await import("@tracemill/engine/suricata")).servedDaemonSource(socket) : undefined;
      const bar = process.stderr.isTTY ? await progressBar() : undefined;
      const result = await sanitize(
        capture,
        {
          ruleset,
          ruleFiles: options.rules,
          classificationFile: options.classification,
          minSeverity: number(options.minSeverity, "--min-severity"),
          verifyPasses: number(options.verifyPasses, "--verify-passes"),
          suricataPath: options.suricata,
          timeoutMs: options.timeout === undefined ? undefined : (number(options.timeout, "--timeout") ?? 0) * 1000,
          runmode: options.runmode,
          daemons,
          // The run goes on as without a socket (the same outputs, the rules loaded for it alone), and says why.
          onDaemonDeclined: (why) => {
            process.stderr.write(`tracemill: warning: ${why}; this run loads the rules into a Suricata of its own\n`);
          },
        },
        {
          outDir: options.out,
          signal: interruptSignal(),
          // Suricata's stage and how much of the capture it has read (docs/formats.md, "Progress").
          onProgress: bar && (({ percent, stage }) => bar.update(percent, { stage })),
        },
      ).finally(() => bar?.stop());
      const s = result.summary as {
        alerts: { total: number };
        packets: { input: number; clean: number; attacks: number };
        sessions: { clean: number; attacks: number };
        verified: boolean;
      };
      process.stderr.write(
        `${counted(s.alerts.total, "alert")}; clean: ${counted(s.packets.clean, "packet")}, ${counted(s.sessions.clean, "session")}; attacks: ${counted(s.packets.attacks, "packet")}, ${counted(s.sessions.attacks, "session")}${s.verified ? "" : " (clean capture not verified: see summary.json)"}\n` +
          `${result.outputs.map((o) => path.join(options.out, o.name)).join(", ")}\n`,
      );
      await reportResultWarnings(result.summary, path.join(options.out, "summary.json"));
      reportDamage(capture, result.summary, `the outputs hold the ${counted(s.packets.input, "packet")} before it`);
    });
}

export function checkRunmode(runmode: string): asserts runmode is "single" | "autofp" {
  if (runmode !== "single" && runmode !== "autofp") {
    throw new TracemillError("BAD_OPTION", `--runmode is single or autofp, not ${runmode}`);
  }
}

export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

function number(text: string | undefined, option: string): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!Number.isFinite(value)) throw new TracemillError("BAD_OPTION", `${option} needs a number, not "${text}"`);
  return value;
}

/** A path that exists is a directory; anything else is a name under the repository's rules/. */
export async function rulesetDir(value: string): Promise<string> {
  if (fs.existsSync(value)) return value;
  const { resolveRuleset } = await import("@tracemill/engine/suricata");
  return (await resolveRuleset(value)).dir;
}

/** The bar's module is loaded only here: every command's start-up would otherwise pay for it. */
async function progressBar(): Promise<import("cli-progress").SingleBar> {
  const { SingleBar } = await import("cli-progress");
  const bar = new SingleBar({
    format: "sanitizing [{bar}] {percentage}% | {stage}",
    stream: process.stderr,
    hideCursor: true,
  });
  bar.start(100, 0, { stage: "starting" });
  return bar;
}

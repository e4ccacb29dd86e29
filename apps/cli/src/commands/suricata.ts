// tracemill suricata serve: one Suricata kept loaded in the foreground, so that `tracemill sanitize --suricata-socket`
// runs scan with it instead of loading the rules again (docs/formats.md, "Sanitization and alerts").
import { TracemillError } from "@tracemill/core/errors";
import { Command } from "commander";
import { interruptSignal } from "../interrupt.js";
import { counted } from "./capability-output.js";
import { checkRunmode, collect, rulesetDir } from "./sanitize.js";

interface ServeOptions {
  rules: string[];
  ruleset?: string;
  classification?: string;
  socket?: string;
  suricata?: string;
  runmode: string;
}

export function suricataCommand(): Command {
  const command = new Command("suricata").description("a Suricata kept loaded for sanitize runs").exitOverride();
  command
    .command("serve")
    .description(
      "load a ruleset into Suricata once and keep it in the foreground; `tracemill sanitize --suricata-socket` scans with it",
    )
    .option("--rules <file>", "a Suricata rules file (repeat for several; default: the bundled ruleset)", collect, [])
    .option("--ruleset <dir-or-name>", "a ruleset directory, or the name of one under rules/ (default: default)")
    .option("--classification <file>", "classification.config (default: the ruleset's, else Suricata's own)")
    .option("--socket <path>", "where to put its socket (a link; default: printed, in the temporary directory)")
    .option("--suricata <path>", "the suricata program (env TRACEMILL_SURICATA; default: suricata on the PATH)")
    .option("--runmode <mode>", "Suricata run mode: single or autofp", "single")
    .action(async (options: ServeOptions) => {
      checkRunmode(options.runmode);
      const { suricataSetup } = await import("@tracemill/engine/sanitize");
      const { serveDaemon } = await import("@tracemill/engine/suricata");
      // The setup a sanitize run with the same options asks for: the served daemon is used only when they agree.
      const setup = await suricataSetup({
        ruleset: options.ruleset ? await rulesetDir(options.ruleset) : undefined,
        ruleFiles: options.rules,
        classificationFile: options.classification,
        suricataPath: options.suricata,
        runmode: options.runmode,
      });
      // A daemon does not hold its owner's event loop (engine/suricata): this command does, until the daemon's process
      // group is gone and its files removed, also when it stops while loading.
      const hold = setInterval(() => {}, 1 << 30);
      try {
        const signal = interruptSignal();
        process.stderr.write(`tracemill: loading ${counted(setup.ruleFiles.length, "rules file")} into Suricata…\n`);
        const served = await serveDaemon(setup, { socket: options.socket, signal });
        const { daemon } = served;
        const ended = new Promise<"signal" | "exited">((resolve) => {
          signal.addEventListener("abort", () => resolve("signal"), { once: true });
          if (signal.aborted) resolve("signal");
          void daemon.exited.then(() => resolve("exited"));
        });
        // The socket alone on standard output, for scripts; the rest is for the person who started it.
        process.stdout.write(`${served.socket}\n`);
        if (daemon.ruleErrors.length > 0) {
          process.stderr.write(`tracemill: warning: Suricata skips ${counted(daemon.ruleErrors.length, "rule")}\n`);
        }
        process.stderr.write(
          `tracemill: Suricata ${daemon.version} is loaded (its log: ${daemon.logFile}); scan with ` +
            `\`tracemill sanitize CAPTURE --suricata-socket ${served.socket}\` and the same rules options; Ctrl-C stops it\n`,
        );
        const why = await ended;
        const tail = daemon.logTail();
        await served.stop();
        if (why === "exited") throw new TracemillError("TOOL_FAILED", `Suricata stopped: ${tail}`, { stderr: tail });
        process.stderr.write("tracemill: Suricata stopped\n");
      } finally {
        clearInterval(hold);
      }
    });
  return command;
}

// Declares every tracemill command in one place; each command's code is a thin file under commands/ that loads its
// engine code when it runs (start-up loads commander and the declarations only).
import { TRACEMILL_VERSION } from "@tracemill/engine/version";
import { Command } from "commander";
import { datasetCommand } from "./commands/dataset.js";
import { extractCommand } from "./commands/extract.js";
import { imagesCommand } from "./commands/images.js";
import { infoCommand } from "./commands/info.js";
import { iptCommand } from "./commands/ipt.js";
import { labelCommand } from "./commands/label.js";
import { librariesCommand } from "./commands/libraries.js";
import { mergeCommand } from "./commands/merge.js";
import { rulesetsCommand } from "./commands/rulesets.js";
import { sanitizeCommand } from "./commands/sanitize.js";
import { serveCommand } from "./commands/serve.js";
import { suricataCommand } from "./commands/suricata.js";
import { workerCommand } from "./commands/worker.js";

export function buildProgram(): Command {
  const program = new Command()
    .name("tracemill")
    .description("Turn packet captures into machine-learning datasets for network intrusion detection research.")
    .version(TRACEMILL_VERSION, "-V, --version", "print the version")
    .option("--debug", "print stack traces of errors")
    .showHelpAfterError()
    .exitOverride();
  program.addCommand(datasetCommand());
  program.addCommand(extractCommand());
  program.addCommand(imagesCommand());
  program.addCommand(infoCommand());
  program.addCommand(iptCommand());
  program.addCommand(labelCommand());
  program.addCommand(librariesCommand());
  program.addCommand(mergeCommand());
  program.addCommand(rulesetsCommand());
  program.addCommand(sanitizeCommand());
  program.addCommand(serveCommand());
  program.addCommand(suricataCommand());
  program.addCommand(workerCommand());
  for (const command of program.commands) command.exitOverride();
  return program;
}

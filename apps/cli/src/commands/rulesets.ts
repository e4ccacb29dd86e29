// tracemill rulesets add|list|remove: the server's rulesets, managed on the server host (there is no upload route).
import type { Ruleset } from "@tracemill/engine/suricata";
import { Command } from "commander";

interface DataOptions {
  data?: string;
}

/** The server's rulesets directory for this data directory (TRACEMILL_RULESETS_DIR wins, as for `serve`). */
async function rulesetsDir(options: DataOptions): Promise<string> {
  // Loaded here, not at the top: the server's dependencies cost every other command start-up time.
  const { loadConfig } = await import("@tracemill/server");
  return loadConfig({ dataDir: options.data }).rulesetsDir;
}

const dataOption = ["--data <dir>", "the server's data directory (env TRACEMILL_DATA_DIR)"] as const;

export function rulesetsCommand(): Command {
  // exitOverride before the sub-commands, which inherit it: usage errors then exit 2 like every other command's.
  const command = new Command("rulesets")
    .description("manage the rulesets a server offers for sanitize jobs (run on the server host)")
    .exitOverride();

  command
    .command("add")
    .description("check rules with suricata -T and add them as a named ruleset")
    .argument("<name>", "the ruleset's name (1 to 64 letters, digits, '.', '_', '-')")
    .argument("<file-or-dir...>", "*.rules files, or directories whose *.rules (and classification.config) to take")
    .option(...dataOption)
    .option("--classification <file>", "classification.config to keep with the rules (default: a directory's own)")
    .option("--suricata <path>", "the suricata program (env TRACEMILL_SURICATA; default: suricata on the PATH)")
    .action(
      async (
        name: string,
        sources: string[],
        options: DataOptions & { classification?: string; suricata?: string },
      ) => {
        const { addRuleset, rulesetFigures } = await import("@tracemill/engine/suricata");
        const dir = await rulesetsDir(options);
        const added = await addRuleset(name, sources, dir, {
          classificationFile: options.classification,
          suricataPath: options.suricata,
        });
        if (added.skipped.length > 0) {
          process.stderr.write(
            `warning: Suricata skips ${added.skipped.length} rule${added.skipped.length === 1 ? "" : "s"}:\n${added.skipped.join("\n")}\n`,
          );
        }
        const figures = await rulesetFigures(added.ruleset);
        process.stdout.write(
          `added ruleset ${name}: ${figures.ruleFiles} rules files, ${figures.rules} rules (${added.ruleset.dir})\n`,
        );
      },
    );

  command
    .command("list")
    .description("list the bundled rulesets and the server's")
    .option(...dataOption)
    .option("--json", "print JSON")
    .action(async (options: DataOptions & { json?: boolean }) => {
      const { bundledRulesetsDir, listRulesets } = await import("@tracemill/engine/suricata");
      const rows = [
        ...(await describeAll(await listRulesets(bundledRulesetsDir), "bundled")),
        ...(await describeAll(await listRulesets(await rulesetsDir(options)), "server")),
      ];
      if (options.json) {
        process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
        return;
      }
      for (const row of rows) {
        const classification = row.ownClassification ? "own classification.config" : "Suricata's classification.config";
        process.stdout.write(
          `${row.name}\t${row.origin}\t${row.ruleFiles} rules files, ${row.rules} rules, ${classification}\t${row.dir}\n`,
        );
      }
    });

  command
    .command("remove")
    .description("remove one of the server's rulesets (bundled ones cannot be removed)")
    .argument("<name>", "the ruleset's name")
    .option(...dataOption)
    .action(async (name: string, options: DataOptions) => {
      const { removeRuleset } = await import("@tracemill/engine/suricata");
      await removeRuleset(name, await rulesetsDir(options));
      process.stdout.write(`removed ruleset ${name}\n`);
    });

  return command;
}

async function describeAll(rulesets: Ruleset[], origin: "bundled" | "server") {
  const { rulesetFigures } = await import("@tracemill/engine/suricata");
  const rows = [];
  for (const ruleset of rulesets) {
    rows.push({ name: ruleset.name, origin, dir: ruleset.dir, ...(await rulesetFigures(ruleset)) });
  }
  return rows;
}

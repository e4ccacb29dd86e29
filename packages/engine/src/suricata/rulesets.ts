// Rulesets: a named directory of *.rules files plus its classification.config (Suricata's own when it has none).
import { realpathSync } from "node:fs";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TracemillError } from "@tracemill/core";
import { runSuricataProcess, type SuricataProcessOptions } from "./run-suricata.js";
import { suricataConfig } from "./suricata-config.js";

export interface Ruleset {
  /** The directory's name. */
  name: string;
  dir: string;
  /** Absolute paths of its *.rules files, sorted by name. */
  ruleFiles: string[];
  /** Its classification.config, or Suricata's own when the directory has none. */
  classificationFile: string;
}

/** Suricata's own classification file (Debian package), used by rulesets that bring none. */
export const suricataClassificationFile = "/etc/suricata/classification.config";

/**
 * The repository's rules/ directory (from src/suricata or dist/suricata alike), found from this module's real path:
 * the URL it was loaded by can go through node_modules/@tracemill/engine (a workspace link), as it did for the CLI
 * reading a pipe on standard input, and rules/ is not beside that.
 */
export const bundledRulesetsDir = path.resolve(
  path.dirname(realpathSync(fileURLToPath(import.meta.url))),
  "../../../../rules",
);

/** The ruleset Tracemill ships: rules/default. */
export function defaultRulesetDir(): string {
  return path.join(bundledRulesetsDir, "default");
}

/** Letters, digits, ".", "_", "-", not starting with a dot or dash: a name that cannot leave its directory. */
const validName = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** BAD_OPTION unless `name` can be a ruleset's name. */
export function checkRulesetName(name: string): void {
  if (!validName.test(name)) {
    throw new TracemillError(
      "BAD_OPTION",
      `"${name}" is not a ruleset name (1 to 64 letters, digits, ".", "_", "-", starting with a letter or digit)`,
      { name },
    );
  }
}

/** Reads one ruleset directory; NOT_FOUND when it is missing, BAD_INPUT when it holds no *.rules file. */
export async function loadRuleset(dir: string): Promise<Ruleset> {
  let names: string[];
  try {
    names = await fs.readdir(dir);
  } catch {
    throw new TracemillError("NOT_FOUND", `ruleset directory ${dir} does not exist or cannot be read`, { file: dir });
  }
  const ruleFiles = names
    .filter((n) => n.endsWith(".rules"))
    .sort()
    .map((n) => path.resolve(dir, n));
  if (ruleFiles.length === 0) {
    throw new TracemillError("BAD_INPUT", `ruleset directory ${dir} holds no *.rules file`, { file: dir });
  }
  const own = names.includes("classification.config");
  return {
    name: path.basename(path.resolve(dir)),
    dir: path.resolve(dir),
    ruleFiles,
    classificationFile: own ? path.resolve(dir, "classification.config") : suricataClassificationFile,
  };
}

/** Every ruleset (sub-directory holding *.rules files) of `rulesetsDir`, sorted by name; [] when it does not exist. */
export async function listRulesets(rulesetsDir: string): Promise<Ruleset[]> {
  let entries: import("node:fs").Dirent[];
  try {
    entries = await fs.readdir(rulesetsDir, { withFileTypes: true });
  } catch {
    return [];
  }
  const rulesets: Ruleset[] = [];
  // Other names (".adding-…" while a ruleset is being copied in) are never rulesets.
  const dirs = entries.filter((e) => e.isDirectory() && validName.test(e.name));
  for (const entry of dirs.sort((a, b) => a.name.localeCompare(b.name))) {
    try {
      rulesets.push(await loadRuleset(path.join(rulesetsDir, entry.name)));
    } catch {
      // A directory without rules is not a ruleset.
    }
  }
  return rulesets;
}

/**
 * The ruleset called `name` in the first of `rulesetsDirs` that has it (default: the repository's rules/); the name
 * cannot leave the directory.
 */
export async function resolveRuleset(
  name: string,
  rulesetsDirs: string | readonly string[] = bundledRulesetsDir,
): Promise<Ruleset> {
  checkRulesetName(name);
  const dirs = typeof rulesetsDirs === "string" ? [rulesetsDirs] : rulesetsDirs;
  for (const dir of dirs) {
    try {
      return await loadRuleset(path.join(dir, name));
    } catch (error) {
      if (!(error instanceof TracemillError) || error.code !== "NOT_FOUND") throw error;
    }
  }
  throw new TracemillError("NOT_FOUND", `no ruleset "${name}" in ${dirs.join(" or ")}`, {
    name,
    file: dirs.join(path.delimiter),
  });
}

export interface RulesValidation {
  valid: boolean;
  /** Suricata's error lines ("E: …") about the rules, empty when valid. */
  errors: string[];
}

/**
 * Checks that Suricata loads every rule of `ruleFiles` (`suricata -T` with Tracemill's configuration).
 * Invalid rules are a result, not an exception; TOOL_FAILED only when Suricata cannot run at all.
 */
export async function validateRules(
  ruleFiles: string[],
  options: SuricataProcessOptions & { classificationFile?: string } = {},
): Promise<RulesValidation> {
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), "tracemill-rules-"));
  try {
    const config = path.join(tmp, "suricata.yaml");
    await fs.writeFile(
      config,
      suricataConfig({
        logDir: tmp,
        ruleFiles: ruleFiles.map((f) => path.resolve(f)),
        classificationFile: options.classificationFile ?? suricataClassificationFile,
        homeNet: "any",
        externalNet: "any",
      }),
    );
    try {
      await runSuricataProcess(["-T", "-c", config, "-l", tmp], options);
      return { valid: true, errors: [] };
    } catch (error) {
      if (!(error instanceof TracemillError) || error.code !== "TOOL_FAILED" || !("exitCode" in error.context)) {
        throw error;
      }
      const text = String(error.context.stderr ?? "");
      const errors = text
        .split("\n")
        .filter((line) => /^(E|Error):/.test(line) && !line.includes("Loading signatures failed"));
      if (errors.length === 0) throw error;
      return { valid: false, errors };
    }
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

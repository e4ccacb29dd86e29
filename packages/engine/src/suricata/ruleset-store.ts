// A server's rulesets directory: adding a ruleset (validated by Suricata, copied in atomically), removing one, and
// the figures that describe one. Bundled names (the repository's rules/) are reserved so every name stays unique.
import fs from "node:fs/promises";
import path from "node:path";
import { TracemillError } from "@tracemill/core";
import {
  bundledRulesetsDir,
  checkRulesetName,
  listRulesets,
  loadRuleset,
  type Ruleset,
  validateRules,
} from "./rulesets.js";
import type { SuricataProcessOptions } from "./run-suricata.js";

export interface RulesetFigures {
  ruleFiles: number;
  /** Active rules (commented-out ones are not counted). */
  rules: number;
  ownClassification: boolean;
}

export interface AddedRuleset {
  ruleset: Ruleset;
  /** The rules Suricata skips ("file line N: why"); they stay in the files but never load. */
  skipped: string[];
}

export interface AddRulesetOptions extends SuricataProcessOptions {
  /** classification.config to keep with the rules; default: a source directory's own, else none (Suricata's). */
  classificationFile?: string;
  /** Whose names are reserved; default: the repository's rules/. */
  bundledDir?: string;
}

const ruleStart = /^\s*(alert|pass|drop|reject|rejectsrc|rejectdst|rejectboth)\s/;

/** Counts active rules in rules-file text (a rule may continue over lines ending in "\"). */
export function countRules(text: string): number {
  let count = 0;
  let continued = false;
  for (const line of text.split("\n")) {
    if (!continued && ruleStart.test(line)) count++;
    continued = line.trimEnd().endsWith("\\");
  }
  return count;
}

/** Rule counts by file, kept while the file's size and time stay the same: ET Open is tens of megabytes to read. */
const counted = new Map<string, { size: number; mtimeMs: number; rules: number }>();

async function rulesIn(file: string): Promise<number> {
  const { size, mtimeMs } = await fs.stat(file);
  const known = counted.get(file);
  if (known && known.size === size && known.mtimeMs === mtimeMs) return known.rules;
  const rules = countRules(await fs.readFile(file, "utf8"));
  counted.set(file, { size, mtimeMs, rules });
  return rules;
}

/** How many rules files and rules a ruleset holds, and whether it brings its own classification.config. */
export async function rulesetFigures(ruleset: Ruleset): Promise<RulesetFigures> {
  let rules = 0;
  for (const file of ruleset.ruleFiles) rules += await rulesIn(file);
  return {
    ruleFiles: ruleset.ruleFiles.length,
    rules,
    ownClassification: path.dirname(ruleset.classificationFile) === ruleset.dir,
  };
}

/** The *.rules files (and a classification.config) named by file and directory arguments. */
async function gatherSources(sources: string[]): Promise<{ ruleFiles: string[]; classification?: string }> {
  const ruleFiles: string[] = [];
  let classification: string | undefined;
  for (const source of sources) {
    const stat = await fs.stat(source).catch(() => {
      throw new TracemillError("NOT_FOUND", `${source} does not exist`, { file: source });
    });
    if (stat.isDirectory()) {
      const names = (await fs.readdir(source)).sort();
      const found = names.filter((n) => n.endsWith(".rules")).map((n) => path.resolve(source, n));
      if (found.length === 0)
        throw new TracemillError("BAD_INPUT", `${source} holds no *.rules file`, { file: source });
      ruleFiles.push(...found);
      if (names.includes("classification.config")) classification ??= path.resolve(source, "classification.config");
    } else if (source.endsWith(".rules")) {
      ruleFiles.push(path.resolve(source));
    } else {
      throw new TracemillError("BAD_INPUT", `${source} is not a *.rules file (give a classification file separately)`, {
        file: source,
      });
    }
  }
  const names = ruleFiles.map((f) => path.basename(f));
  const twice = names.find((n, i) => names.indexOf(n) !== i);
  if (twice) throw new TracemillError("BAD_INPUT", `two rules files are called ${twice}`, { file: twice });
  return { ruleFiles, classification };
}

/** "b.rules line 3: unknown rule keyword 'conten'." for each rule Suricata's error lines say it could not parse. */
function skippedRules(errors: string[]): string[] {
  const skipped: string[] = [];
  errors.forEach((line, i) => {
    const rule = /error parsing signature ".*" from file (.+) at line (\d+)$/.exec(line);
    if (!rule) return;
    // Suricata says why on the line before.
    const reason = i > 0 && !errors[i - 1].includes("error parsing signature") ? errors[i - 1] : "";
    skipped.push(`${path.basename(rule[1])} line ${rule[2]}: ${reason.replace(/^(E|Error): [\w-]+: /, "")}`.trim());
  });
  return skipped;
}

/** Refuses a name that is bundled or already in `rulesetsDir`. */
async function checkFree(name: string, rulesetsDir: string, bundledDir: string): Promise<void> {
  if ((await listRulesets(bundledDir)).some((r) => r.name === name)) {
    throw new TracemillError("BAD_OPTION", `"${name}" is the name of a bundled ruleset; choose another`, { name });
  }
  const exists = await fs.stat(path.join(rulesetsDir, name)).then(
    () => true,
    () => false,
  );
  if (exists) {
    throw new TracemillError("BAD_OPTION", `a ruleset "${name}" already exists in ${rulesetsDir}`, { name });
  }
}

/**
 * Adds the ruleset `name` to `rulesetsDir` from rules files and directories. Suricata checks the rules first: when
 * none loads the ruleset is refused with Suricata's error lines; rules it skips are reported (the files are copied as
 * they are, and Suricata skips those rules in every run).
 */
export async function addRuleset(
  name: string,
  sources: string[],
  rulesetsDir: string,
  options: AddRulesetOptions = {},
): Promise<AddedRuleset> {
  checkRulesetName(name);
  const bundledDir = options.bundledDir ?? bundledRulesetsDir;
  await checkFree(name, rulesetsDir, bundledDir);
  const { ruleFiles, classification: sourceClassification } = await gatherSources(sources);
  const classification = options.classificationFile ?? sourceClassification;
  const validation = await validateRules(ruleFiles, { ...options, classificationFile: classification });
  let rules = 0;
  for (const file of ruleFiles) rules += countRules(await fs.readFile(file, "utf8"));
  const skipped = skippedRules(validation.errors);
  if (rules === 0 || (!validation.valid && (skipped.length === 0 || skipped.length >= rules))) {
    const why = validation.errors.length > 0 ? `:\n${validation.errors.join("\n")}` : ": the files hold no rule";
    throw new TracemillError("BAD_INPUT", `Suricata loads none of the rules${why}`, { name });
  }

  await fs.mkdir(rulesetsDir, { recursive: true });
  // Built under a name no ruleset can have, then renamed: a half-copied ruleset is never listed or used.
  const tmp = await fs.mkdtemp(path.join(rulesetsDir, `.adding-${name}-`));
  try {
    for (const file of ruleFiles) await fs.copyFile(file, path.join(tmp, path.basename(file)));
    if (classification) await fs.copyFile(classification, path.join(tmp, "classification.config"));
    await checkFree(name, rulesetsDir, bundledDir);
    await fs.rename(tmp, path.join(rulesetsDir, name));
  } catch (error) {
    await fs.rm(tmp, { recursive: true, force: true });
    throw error;
  }
  return { ruleset: await loadRuleset(path.join(rulesetsDir, name)), skipped };
}

/** Removes the ruleset `name` from `rulesetsDir`; bundled rulesets cannot be removed. */
export async function removeRuleset(name: string, rulesetsDir: string, bundledDir = bundledRulesetsDir): Promise<void> {
  checkRulesetName(name);
  if ((await listRulesets(bundledDir)).some((r) => r.name === name)) {
    throw new TracemillError("BAD_OPTION", `"${name}" is a bundled ruleset and cannot be removed`, { name });
  }
  const dir = path.join(rulesetsDir, name);
  // Renamed away first, so a job never sees a half-removed ruleset.
  const doomed = path.join(rulesetsDir, `.removing-${name}-${process.pid}-${Date.now()}`);
  try {
    await fs.rename(dir, doomed);
  } catch {
    throw new TracemillError("NOT_FOUND", `no ruleset "${name}" in ${rulesetsDir}`, { name, file: rulesetsDir });
  }
  await fs.rm(doomed, { recursive: true, force: true });
}

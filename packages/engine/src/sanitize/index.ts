// Public surface of the sanitize capability: the capability itself, rulesets, and one Suricata run.

export {
  type AddedRuleset,
  type AddRulesetOptions,
  addRuleset,
  countRules,
  type RulesetFigures,
  removeRuleset,
  rulesetFigures,
} from "./ruleset-store.js";
export {
  bundledRulesetsDir,
  checkRulesetName,
  defaultRulesetDir,
  listRulesets,
  loadRuleset,
  type Ruleset,
  type RulesValidation,
  resolveRuleset,
  suricataClassificationFile,
  validateRules,
} from "./rulesets.js";
export { installHint } from "./run-suricata.js";
export { type SanitizeOptions, sanitize } from "./sanitize.js";
export { runSuricataOnCapture, type SuricataRun, type SuricataRunSetup } from "./suricata-run.js";

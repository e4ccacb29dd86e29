// Public surface of the sanitize capability: Suricata runs, the session split, rulesets.
export { type AttackFlow, AttackSessions } from "./attack-sessions.js";
export { readEveAlerts, readEveFlows } from "./eve-files.js";
export {
  bundledRulesetsDir,
  defaultRulesetDir,
  listRulesets,
  loadRuleset,
  type Ruleset,
  type RulesValidation,
  resolveRuleset,
  suricataClassificationFile,
  validateRules,
} from "./rulesets.js";
export { installHint, runSuricataProcess, type SuricataOutput, type SuricataProcessOptions } from "./run-suricata.js";
export { type SanitizeOptions, sanitize } from "./sanitize.js";
export { type SplitResult, splitCapture } from "./split-capture.js";

// Public surface of engine/suricata: finding and running Suricata, one run over a capture with its EVE output read as
// it is written, daemons kept loaded per ruleset (a pool's, or one served in the foreground), and the rulesets it runs (bundled and added); used by
// sanitize, by labelling for the bundled classification.config, and by the server's ruleset pages and job pools.
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
export {
  DaemonDeclined,
  type ServedDaemon,
  serveDaemon,
  servedDaemonSource,
} from "./served-daemon.js";
export { SocketLost } from "./socket-client.js";
export { type DaemonLease, type DaemonSetup, SuricataDaemon } from "./suricata-daemon.js";
export { type DaemonSource, type DaemonsOptions, defaultIdleMs, SuricataDaemons } from "./suricata-daemons.js";
export { runSuricataOnCapture, type SuricataRun, type SuricataRunSetup } from "./suricata-run.js";

// Public surface of the sanitize capability: a capture split into clean and attack packets by Suricata's alerts (its
// rulesets and runs: engine/suricata).
export { type SanitizeOptions, sanitize, suricataSetup } from "./sanitize.js";

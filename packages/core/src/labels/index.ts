// Public surface of core/labels: session identity for labelling, 5-tuple and provenance labels, alert matching.
export {
  AlertMatcher,
  type AlertMatcherOptions,
  DEFAULT_ALERT_TOLERANCE_US,
  type LabelAlert,
} from "./alert-matcher.js";
export { AttackTupleSet } from "./attack-tuples.js";
export { endpointPairKey } from "./endpoint-key.js";
export { AttackPacketRanges, type PacketRange } from "./packet-origin.js";

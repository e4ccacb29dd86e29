// Public surface of core/flow: bidirectional TCP/UDP sessions with idle, active and TCP-close expiry.
export type { FlowPacket } from "./flow-packet.js";
export { FlowTable } from "./flow-table.js";
export {
  type FlowTableHooks,
  type FlowTableOptions,
  MAX_ACTIVE_TIMEOUT_SEC,
  MAX_IDLE_TIMEOUT_SEC,
} from "./flow-table-options.js";
export { EndReason, Session } from "./session.js";

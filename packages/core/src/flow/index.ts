// Public surface of core/flow: bidirectional TCP/UDP sessions with idle, active and TCP-close expiry.
export type { FlowPacket } from "./flow-packet.js";
export { FlowTable, type FlowTableHooks, type FlowTableOptions } from "./flow-table.js";
export { EndReason, Session } from "./session.js";

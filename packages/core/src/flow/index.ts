// Public surface of core/flow: bidirectional TCP/UDP sessions with idle, active and TCP-close expiry.
export type { FlowPacket } from "./flow-packet.js";
export { FlowTable } from "./flow-table.js";
export type { FlowTableHooks, FlowTableOptions } from "./flow-table-options.js";
export { EndReason, Session } from "./session.js";

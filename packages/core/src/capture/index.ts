// Public surface of core/capture: readers, writers and the packet they share.
export type { CapturedPacket } from "./packet.js";

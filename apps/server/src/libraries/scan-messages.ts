// Messages between the server and its library scan process (over the IPC channel of child_process.fork).
import type { CaptureScan } from "./capture-scan.js";

export interface ToScan {
  /** The file's real path, confined to its library just before. */
  file: string;
  hash: boolean;
}

export type FromScan = ({ type: "done" } & CaptureScan) | { type: "failed"; message: string };

// Writes alerts.u2: one event record per alert (104 IPv4 / 105 IPv6) and a packet record when EVE carried the packet.
import fs from "node:fs";
import { type Alert, encodeUnified2Record, unified2RecordsFromAlert } from "@tracemill/core";

export class Unified2File {
  private readonly stream: fs.WriteStream;
  private eventId = 0;
  /** Alerts unified2 cannot hold (no IP addresses): counted, not written. */
  skipped = 0;

  constructor(file: string) {
    this.stream = fs.createWriteStream(file);
  }

  write(alert: Alert): void {
    let records: ReturnType<typeof unified2RecordsFromAlert>;
    try {
      records = unified2RecordsFromAlert(alert, this.eventId + 1);
    } catch {
      this.skipped++;
      return;
    }
    this.eventId++;
    for (const record of records) this.stream.write(encodeUnified2Record(record));
  }

  close(): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stream.once("error", reject);
      this.stream.end(() => resolve());
    });
  }
}

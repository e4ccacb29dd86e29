// Writes alerts.u2: one event record per alert (104 IPv4 / 105 IPv6) and a packet record when EVE carried the packet.
import fs from "node:fs";
import { type Alert, ByteBatch, encodeUnified2Record, unified2RecordsFromAlert } from "@tracemill/core";

export class Unified2File {
  private readonly stream: fs.WriteStream;
  /** Records are gathered into large chunks: one write per record would cost more than encoding them. */
  private readonly batch: ByteBatch;
  private eventId = 0;
  /** Alerts unified2 cannot hold (no IP addresses): counted, not written. */
  skipped = 0;

  constructor(file: string) {
    this.stream = fs.createWriteStream(file);
    this.batch = new ByteBatch((chunk) => {
      this.stream.write(chunk);
    });
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
    for (const record of records) {
      const bytes = encodeUnified2Record(record);
      this.batch.buf.set(bytes, this.batch.reserve(bytes.length));
    }
  }

  close(): Promise<void> {
    this.batch.flush();
    return new Promise((resolve, reject) => {
      this.stream.once("error", reject);
      this.stream.end(() => resolve());
    });
  }
}

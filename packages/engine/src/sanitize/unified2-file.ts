// Writes alerts.u2: one event record per alert (104 IPv4 / 105 IPv6) and a packet record when EVE carried the packet.
import fs from "node:fs";
import { ByteBatch, type EveAlertFields, writeUnified2Alert } from "@tracemill/core";

export class Unified2File {
  private readonly stream: fs.WriteStream;
  /** Records are encoded straight into large chunks: one write per record would cost more than encoding them. */
  private readonly batch: ByteBatch;
  private eventId = 0;
  /** Alerts unified2 cannot hold (no IP addresses): counted, not written. */
  skipped = 0;

  constructor(file: string) {
    this.stream = fs.createWriteStream(file);
    this.batch = new ByteBatch(
      (chunk) => {
        this.stream.write(chunk);
      },
      4 * 1024 * 1024,
    );
  }

  write(alert: EveAlertFields): void {
    if (alert.addressLength !== 4 && alert.addressLength !== 16) {
      this.skipped++;
      return;
    }
    writeUnified2Alert(this.batch, alert, ++this.eventId);
  }

  close(): Promise<void> {
    this.batch.flush();
    return new Promise((resolve, reject) => {
      this.stream.once("error", reject);
      this.stream.end(() => resolve());
    });
  }
}

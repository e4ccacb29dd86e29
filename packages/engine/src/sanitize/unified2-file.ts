// Writes alerts.u2: one event record per alert (104 IPv4 / 105 IPv6) and a packet record when EVE carried the packet.
import fs from "node:fs";
import { ByteBatch, type EveAlertFields, TracemillError, writeUnified2Alert } from "@tracemill/core";

export class Unified2File {
  private readonly stream: fs.WriteStream;
  /** Records are encoded straight into large chunks: one write per record would cost more than encoding them. */
  private readonly batch: ByteBatch;
  private eventId = 0;
  /** Alerts unified2 cannot hold (no IP addresses): counted, not written. */
  skipped = 0;
  /** The first write error (a full disk): kept here, since an unhandled stream error would end the process. */
  private failure: TracemillError | null = null;

  constructor(file: string) {
    this.stream = fs.createWriteStream(file);
    this.stream.on("error", (error) => {
      this.failure ??= new TracemillError("OUTPUT_FAILED", `${file}: could not be written (${error.message})`, {
        file,
        cause: error,
      });
    });
    this.batch = new ByteBatch(
      // Chunks come back once written (every byte of a record is set, so none of an old one shows): fresh 4 MiB
      // buffers cost page faults.
      (chunk) => {
        this.stream.write(chunk, () => this.batch.recycle(chunk));
      },
      1024 * 1024,
    );
  }

  write(alert: EveAlertFields): void {
    if (alert.addressLength !== 4 && alert.addressLength !== 16) {
      this.skipped++;
      return;
    }
    writeUnified2Alert(this.batch, alert, ++this.eventId);
  }

  /** Writes what is left and closes; rejects with OUTPUT_FAILED when any write failed. */
  close(): Promise<void> {
    if (this.failure === null) this.batch.flush();
    return new Promise((resolve, reject) => {
      const settle = () => (this.failure ? reject(this.failure) : resolve());
      // A stream that failed is destroyed: it never finishes, it closes.
      if (this.stream.destroyed) settle();
      else {
        this.stream.once("close", settle);
        this.stream.end();
      }
    });
  }
}

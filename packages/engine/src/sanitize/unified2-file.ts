// Writes alerts.u2: one event record per alert (104 IPv4 / 105 IPv6) and a packet record when EVE carried the packet.
import fs from "node:fs";
import { ByteBatch, type EveAlertFields, TracemillError, writeUnified2Alert } from "@tracemill/core";

export class Unified2File {
  /** -1 once the file failed (it is then closed, or was never opened). */
  private fd: number;
  /**
   * Records are encoded straight into one chunk, written in place when full: alerts are read in long synchronous
   * runs, during which chunks handed to a stream would pile up unwritten, each a fresh megabyte of page faults.
   */
  private readonly batch: ByteBatch;
  private eventId = 0;
  /** Alerts unified2 cannot hold (no IP addresses): counted, not written. */
  skipped = 0;
  /** The first error (a full disk): kept for close(), since write() is called from a line handler. */
  private failure: TracemillError | null = null;

  constructor(private readonly file: string) {
    try {
      this.fd = fs.openSync(file, "w");
    } catch (error) {
      this.fd = -1;
      this.fail(error);
    }
    // The written chunk is filled again at once: every byte of a record is set, so nothing of an earlier one shows.
    this.batch = new ByteBatch((chunk) => {
      this.writeOut(chunk);
      this.batch.recycle(chunk);
    }, 1024 * 1024);
  }

  write(alert: EveAlertFields): void {
    if (alert.addressLength !== 4 && alert.addressLength !== 16) {
      this.skipped++;
      return;
    }
    writeUnified2Alert(this.batch, alert, ++this.eventId);
  }

  /** Writes what is left and closes; rejects with OUTPUT_FAILED when any write failed. */
  async close(): Promise<void> {
    this.batch.flush();
    if (this.fd >= 0) {
      const fd = this.fd;
      this.fd = -1;
      await new Promise<void>((resolve) =>
        fs.close(fd, (error) => {
          if (error) this.fail(error);
          resolve();
        }),
      );
    }
    if (this.failure) throw this.failure;
  }

  private writeOut(chunk: Uint8Array): void {
    try {
      for (let at = 0; at < chunk.length && this.fd >= 0; ) at += fs.writeSync(this.fd, chunk, at);
    } catch (error) {
      this.fail(error);
      // Nothing more goes to a file that failed; a close error adds nothing to the first one.
      fs.close(this.fd, () => {});
      this.fd = -1;
    }
  }

  private fail(error: unknown): void {
    const message = error instanceof Error ? error.message : String(error);
    this.failure ??= new TracemillError("OUTPUT_FAILED", `${this.file}: could not be written (${message})`, {
      file: this.file,
      cause: error,
    });
  }
}

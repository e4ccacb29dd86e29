// Writes the provenance record beside the merged capture: the header line, one line per run, a trailer; to a
// temporary name renamed on success, so a failed merge leaves no record behind.
import fs from "node:fs";
import type { ProvenanceHeader, ProvenanceTrailer } from "./provenance.js";

const FLUSH_AT = 1 << 20;

export class ProvenanceWriter {
  private readonly fd: number;
  private readonly temporary: string;
  private pending = "";
  private readonly headerLength: number;
  private runInput = -1;
  private runOutputStart = 0;
  private runOriginalStart = 0;
  private runCount = 0;
  private runs = 0;
  private packets = 0;
  private closed = false;
  private finished = false;

  /**
   * `header` may hold placeholders for what is known only at the end (the inputs' SHA-256, hashed beside the
   * merge): finish() writes the final header over it, which must serialize to the same length.
   */
  constructor(
    private readonly file: string,
    header: ProvenanceHeader,
  ) {
    this.temporary = `${file}.partial`;
    this.fd = fs.openSync(this.temporary, "w");
    this.pending = `${JSON.stringify(header)}\n`;
    this.headerLength = Buffer.byteLength(this.pending);
  }

  /** Records that the next output packet is packet `originalIndex` of input `input`. */
  add(input: 0 | 1, originalIndex: number): void {
    this.addRun(input, originalIndex, 1);
  }

  /** Records that the next `count` output packets are packets `originalStart`... of input `input`. */
  addRun(input: 0 | 1, originalStart: number, count: number): void {
    if (input !== this.runInput || originalStart !== this.runOriginalStart + this.runCount) {
      this.endRun();
      this.runInput = input;
      this.runOutputStart = this.packets;
      this.runOriginalStart = originalStart;
    }
    this.runCount += count;
    this.packets += count;
  }

  /** Writes the trailer and the final header, and renames the record into place. */
  finish(header: ProvenanceHeader): void {
    this.endRun();
    const trailer: ProvenanceTrailer = { end: true, packets: this.packets, runs: this.runs };
    this.pending += `${JSON.stringify(trailer)}\n`;
    this.flush();
    const line = Buffer.from(`${JSON.stringify(header)}\n`);
    if (line.length !== this.headerLength) {
      throw new Error("the provenance header changed length since the record was started");
    }
    fs.writeSync(this.fd, line, 0, line.length, 0);
    fs.closeSync(this.fd);
    this.closed = true;
    fs.renameSync(this.temporary, this.file);
    this.finished = true;
  }

  /** Removes the record, partial or finished (after a failure elsewhere: it must not describe a missing capture). */
  abort(): void {
    if (!this.closed) fs.closeSync(this.fd);
    this.closed = true;
    fs.rmSync(this.temporary, { force: true });
    if (this.finished) fs.rmSync(this.file, { force: true });
  }

  private endRun(): void {
    if (this.runCount === 0) return;
    this.pending += `[${this.runInput},${this.runOutputStart},${this.runOriginalStart},${this.runCount}]\n`;
    this.runs++;
    this.runCount = 0;
    if (this.pending.length >= FLUSH_AT) this.flush();
  }

  private flush(): void {
    if (this.pending.length > 0) fs.writeSync(this.fd, this.pending);
    this.pending = "";
  }
}

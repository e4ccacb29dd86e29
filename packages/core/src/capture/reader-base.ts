// What every capture reader shares: the input window, the reused packet, end-of-input and damage handling.
import { TracemillError } from "../errors.js";
import { damagedInput } from "./damage.js";
import { InputWindow } from "./input-window.js";
import type { CapturedPacket } from "./packet.js";
import { PacketRecord } from "./packet-record.js";
import type { CaptureDamage, CaptureInfo, CaptureWarning, PacketSource } from "./packet-source.js";

export abstract class ReaderBase implements PacketSource {
  abstract readonly info: CaptureInfo;
  done = false;
  damage: CaptureDamage | null = null;
  packetCount = 0;
  protected readonly w = new InputWindow();
  protected readonly rec = new PacketRecord();

  get consumedBytes(): number {
    return this.w.offset;
  }

  push(chunk: Uint8Array): void {
    if (this.w.ended) throw new TracemillError("BAD_OPTION", "push() after end(): the input was already complete");
    this.w.push(chunk);
  }

  end(): void {
    this.w.ended = true;
  }

  packetComments(): string[] {
    return [];
  }

  abstract next(): CapturedPacket | null;

  /** Why a capture that ended cleanly holds no packet: nothing may be silently empty. */
  private noPacketsReason(): string {
    const skipped = this.info.skippedRecords;
    if (skipped === 0) return `no packets: the capture ends after its headers (${this.w.offset} bytes)`;
    const records = this.info.format === "pcapng" ? "blocks" : "records";
    return `no packets: the capture holds only ${skipped} ${records} that carry none (${
      this.info.format === "erf"
        ? "ERF provenance, padding or other non-packet types"
        : "statistics, name resolution or other"
    }), skipped`;
  }

  /** Counts a warning of this code; the first occurrence gives the offset and message. */
  protected warn(code: CaptureWarning["code"], offset: number, message: () => string): void {
    const warnings = this.info.warnings;
    for (const warning of warnings) {
      if (warning.code === code) {
        warning.count++;
        return;
      }
    }
    warnings.push({ code, count: 1, offset, message: message() });
  }

  /** Stops reading: records the damage and throws it. */
  protected fail(offset: number, reason: string): never {
    const error = damagedInput(offset, reason, this.packetCount);
    this.done = true;
    this.damage = { offset, message: error.message };
    throw error;
  }

  /**
   * Called when fewer than `needed` bytes are at hand: null to wait for more input, or, after end(),
   * done at a clean record boundary and damage inside a record.
   */
  protected outOfInput(needed: number, what: string, atBoundary: boolean): null {
    if (!this.w.ended) return null;
    const have = this.w.end - this.w.pos;
    if (have === 0 && atBoundary) {
      this.done = true;
      if (this.packetCount === 0) this.warn("no-packets", this.w.offset, () => this.noPacketsReason());
      return null;
    }
    return this.fail(this.w.offset, `truncated ${what}: ${needed} bytes needed, the file ends after ${have}`);
  }
}

// Labels from an attack schedule (docs/datasets.md, "Schedules"): a session belongs to the window that holds most of
// its packets (the earliest on a tie), when one holds any. The candidate windows are found once, at the session's
// first packet; each later packet is only compared with their times.
import { type CompiledSchedule, type FlowPacket, ScheduleMatcher, type Session } from "@tracemill/core";
import { SessionEndpoints } from "../../labels/index.js";
import type { LabelSource, SourceMatch } from "./label-source.js";

/** Numbers per candidate in a session's table: its code (window << 1 | attacker forward), start, end, packets in it. */
const STRIDE = 4;
const TCP = 6;
/** Payload flags per session: the forward side sent transport payload, the backward side did. */
const FORWARD_PAYLOAD = 1;
const BACKWARD_PAYLOAD = 2;
/** The table of a record that has had no candidate yet (the tables stay a dense array, never one with holes). */
const NO_TABLE = new Float64Array(0);

export class ScheduleSource implements LabelSource {
  readonly kind = "schedule";
  private readonly matcher: ScheduleMatcher;
  private readonly endpoints = new SessionEndpoints();
  private readonly found: Int32Array;
  /** Per window: its class as given, and with " - Attempted". */
  private readonly classNames: readonly string[];
  private readonly attemptedNames: readonly string[];
  // Per session record (by slot), reused by the record's next session: its candidates (0 for most sessions, which
  // then cost one load per packet), its packets, its payload flags, and its candidates' table (grown, never shrunk).
  private candidates = new Int32Array(1024);
  /** The offset in the session's table of its first candidate that may still hold a packet. */
  private live = new Int32Array(1024);
  private packets = new Float64Array(1024);
  private payload = new Uint8Array(1024);
  private readonly tables: Float64Array[] = new Array<Float64Array>(1024).fill(NO_TABLE);
  // Per window: sessions labelled by it, their packets inside it, and how many of those sessions were attempts.
  private readonly sessions: Float64Array;
  private readonly windowPackets: Float64Array;
  private readonly attempts: Float64Array;
  private readonly current: SourceMatch = { className: "", fraction: 0, rule: "" };

  constructor(private readonly schedule: CompiledSchedule) {
    this.matcher = new ScheduleMatcher(schedule);
    const count = schedule.windows.length;
    this.found = new Int32Array(count);
    this.classNames = schedule.windows.map((window) => window.className);
    this.attemptedNames = schedule.windows.map((window) => `${window.className} - Attempted`);
    this.sessions = new Float64Array(count);
    this.windowPackets = new Float64Array(count);
    this.attempts = new Float64Array(count);
  }

  onPacket(session: Session, packet: FlowPacket): void {
    const slot = packet.slot;
    if (packet.gap === -1) this.begin(session, packet);
    const n = this.candidates[slot];
    if (n === 0) return;
    const table = this.tables[slot];
    const time = packet.time;
    const end = n * STRIDE;
    // A session's times never decrease and its candidates are in order of start: the ones at the front that have
    // ended stay behind it, and past the first that has not started yet none has.
    let at = this.live[slot];
    while (at < end && time >= table[at + 2]) at += STRIDE;
    this.live[slot] = at;
    for (; at < end && time >= table[at + 1]; at += STRIDE) {
      if (time < table[at + 2]) table[at + 3]++;
    }
    this.packets[slot]++;
    if (packet.payloadLength > 0) this.payload[slot] |= packet.forward ? FORWARD_PAYLOAD : BACKWARD_PAYLOAD;
  }

  match(session: Session): SourceMatch | null {
    const slot = session.slot;
    const n = slot < this.candidates.length ? this.candidates[slot] : 0;
    if (n === 0) return null;
    const table = this.tables[slot];
    let best = -1;
    let most = 0;
    // Candidates are in window order (by start), so a strict comparison keeps the earliest of equal counts.
    for (let at = 0; at < n * STRIDE; at += STRIDE) {
      if (table[at + 3] > most) {
        most = table[at + 3];
        best = at;
      }
    }
    if (best < 0) return null;
    const code = table[best];
    const w = code >> 1;
    const window = this.schedule.windows[w];
    const attackerFlag = (code & 1) === 1 ? FORWARD_PAYLOAD : BACKWARD_PAYLOAD;
    const attempt = window.attempted && session.protocol === TCP && (this.payload[slot] & attackerFlag) === 0;
    this.sessions[w]++;
    this.windowPackets[w] += most;
    if (attempt) this.attempts[w]++;
    this.current.className = attempt ? this.attemptedNames[w] : this.classNames[w];
    this.current.fraction = most / this.packets[slot];
    this.current.rule = window.id;
    return this.current;
  }

  /** Per window id (in schedule order): its class, sessions labelled, their packets inside it, attempts among them. */
  summary(): Record<string, unknown> {
    const windows = [...this.schedule.windows].sort((a, b) => a.index - b.index);
    const position = new Map(this.schedule.windows.map((window, w) => [window, w]));
    const byWindow: Record<string, { class: string; sessions: number; packets: number; attempted: number }> = {};
    const withoutSessions: string[] = [];
    for (const window of windows) {
      const w = position.get(window) as number;
      byWindow[window.id] = {
        class: window.className,
        sessions: this.sessions[w],
        packets: this.windowPackets[w],
        attempted: this.attempts[w],
      };
      if (this.sessions[w] === 0) withoutSessions.push(window.id);
    }
    return { timezone: this.schedule.timezone, windows: byWindow, windowsWithoutSessions: withoutSessions };
  }

  /** A session's first packet: its candidate windows, with their times in nanoseconds since its base second. */
  private begin(session: Session, packet: FlowPacket): void {
    const slot = packet.slot;
    if (slot >= this.candidates.length) this.grow(slot);
    const baseUs = session.baseSec * 1e6;
    const e = this.endpoints;
    const length = e.load(session);
    const n = this.matcher.find(
      session.protocol,
      length === 4 ? 4 : 6,
      e.a,
      session.fwdPort,
      e.b,
      session.bwdPort,
      baseUs + Math.floor(packet.time / 1000),
      this.found,
    );
    this.candidates[slot] = n;
    if (n === 0) return;
    let table = this.tables[slot];
    if (table.length < n * STRIDE) {
      table = new Float64Array(Math.max(n, 4) * STRIDE);
      this.tables[slot] = table;
    }
    for (let i = 0, at = 0; i < n; i++, at += STRIDE) {
      const window = this.schedule.windows[this.found[i] >> 1];
      // Exact: the differences are whole microseconds, and only those near the session's own times (below 2^53 ns)
      // decide a comparison.
      table[at] = this.found[i];
      table[at + 1] = (window.startUs - baseUs) * 1000;
      table[at + 2] = (window.endUs - baseUs) * 1000;
      table[at + 3] = 0;
    }
    this.live[slot] = 0;
    this.packets[slot] = 0;
    this.payload[slot] = 0;
  }

  private grow(slot: number): void {
    let size = this.candidates.length;
    while (size <= slot) size *= 2;
    const candidates = new Int32Array(size);
    candidates.set(this.candidates);
    this.candidates = candidates;
    const live = new Int32Array(size);
    live.set(this.live);
    this.live = live;
    while (this.tables.length < size) this.tables.push(NO_TABLE);
    const packets = new Float64Array(size);
    packets.set(this.packets);
    this.packets = packets;
    const payload = new Uint8Array(size);
    payload.set(this.payload);
    this.payload = payload;
  }
}

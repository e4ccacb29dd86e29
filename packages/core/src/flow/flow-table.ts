// The flow table: groups TCP/UDP packets into bidirectional sessions and ends them by timeout, RST or FINs.
// Lookup is an open-addressing hash table on a symmetric hash of the endpoints; expiry is a timing wheel, so each
// packet costs O(1), touches only its own session, and memory follows the number of live sessions.
import { type DecodedPacket, TcpFlag } from "../decode/decoded-packet.js";
import { TracemillError } from "../errors.js";
import { EndpointKey } from "./endpoint-key.js";
import { ExpiryWheel } from "./expiry-wheel.js";
import { createFlowPacket, type FlowPacket } from "./flow-packet.js";
import {
  type FlowTableHooks,
  type FlowTableOptions,
  MAX_ACTIVE_TIMEOUT_SEC,
  MAX_IDLE_TIMEOUT_SEC,
} from "./flow-table-options.js";
import {
  CHUNK_MASK,
  CHUNK_SHIFT,
  CLOSED,
  EndReason,
  FIN_BWD,
  FIN_FWD,
  N_BASE_SEC,
  N_BWD_BYTES,
  N_BWD_PACKETS,
  N_FIRST_INDEX,
  N_FIRST_TIME,
  N_FWD_BYTES,
  N_FWD_PACKETS,
  N_LAST_TIME,
  N_SEQ,
  RECORD_NUMBERS,
  RECORD_WORDS,
  Session,
  SessionStore,
  sinceLast,
  W_GENERATION,
  W_HASH,
  W_KEY,
  W_PORTS,
  withReason,
} from "./session.js";
import { SessionIndex } from "./session-index.js";

const SYN_ACK = TcpFlag.SYN | TcpFlag.ACK;
const NS = 1e9;

export class FlowTable {
  readonly idleTimeoutNs: number;
  readonly activeTimeoutNs: number;
  /** Packets whose timestamp was earlier than an earlier packet's: counted at the latest time seen instead. */
  outOfOrder = 0;
  /** Sessions started so far (the next session's seq). */
  started = 0;
  private readonly index = new SessionIndex();
  private readonly wheel: ExpiryWheel;
  private readonly endIdle = (slot: number) => {
    this.closeAs(slot, EndReason.Idle);
    this.end(slot);
  };
  /** Slots of ended records, taken again before the store adds one. */
  private readonly free: number[] = [];
  private readonly store: SessionStore;
  /** The one view the hooks get, pointed at the record of each call. */
  private readonly session: Session;
  private readonly packet: FlowPacket;
  /** The latest time seen (a packet's, or one given to advance()), exactly: whole seconds and nanoseconds. */
  private clockSec = Number.NEGATIVE_INFINITY;
  private clockNsec = 0;
  /**
   * The same time as nanoseconds since `frameSec` (the first time's second), for the expiry wheel's buckets only: a
   * double, rounded beyond 2^53 ns but never reordered, which is all the wheel needs (it decides each end exactly).
   */
  private clock = 0;
  private frameSec = Number.NaN;
  /** The endpoints of the packet being added. */
  private readonly endpoints = new EndpointKey();

  constructor(
    private readonly hooks: FlowTableHooks,
    options: FlowTableOptions = {},
  ) {
    this.idleTimeoutNs = options.idleTimeoutNs ?? 120 * NS;
    this.activeTimeoutNs = options.activeTimeoutNs ?? 1800 * NS;
    for (const [name, value, max] of [
      ["idle timeout", this.idleTimeoutNs, MAX_IDLE_TIMEOUT_SEC],
      ["active timeout", this.activeTimeoutNs, MAX_ACTIVE_TIMEOUT_SEC],
    ] as const) {
      if (!(value > 0 && value <= max * NS)) {
        throw new TracemillError("BAD_OPTION", `The ${name} must be a positive number of seconds up to ${max}.`, {
          value,
        });
      }
    }
    this.store = new SessionStore();
    this.session = new Session(this.store);
    this.wheel = new ExpiryWheel(this.idleTimeoutNs, this.store, this.index);
    this.packet = createFlowPacket();
  }

  /** Sessions currently in the table (open, or closed and waiting for late packets). */
  get liveSessions(): number {
    return this.index.size;
  }

  /**
   * Adds a decoded TCP or UDP packet (its `kind` is Tcp or Udp and its ports are known) captured at `tsSec` whole
   * seconds + `tsNsec` nanoseconds (0..999 999 999). `length` is the byte count to account for it. Sessions idle at
   * this packet's time end first.
   */
  add(decoded: DecodedPacket, tsSec: number, tsNsec: number, length: number, index: number): void {
    if (tsSec > this.clockSec || (tsSec === this.clockSec && tsNsec >= this.clockNsec)) {
      if (Number.isNaN(this.frameSec)) this.startFrame(tsSec);
      this.clockSec = tsSec;
      this.clockNsec = tsNsec;
      this.clock = (tsSec - this.frameSec) * NS + tsNsec;
    } else {
      this.outOfOrder++;
    }
    // The packet's time is the clock's (its own, or the latest for a late packet), read back from the fields: a
    // variable that is the argument or the field would be a boxed phi, costly on every packet.
    const sec = this.clockSec;
    const nsec = this.clockNsec;
    // No double goes to a call here: a double argument is boxed, and V8 boxes the value once for every use, so a
    // call would allocate a number on every packet. The calls read the table's fields instead.
    if (this.clock - this.idleTimeoutNs >= this.wheel.due) this.expireDue();

    const packet = this.packet;
    packet.decoded = decoded;
    packet.index = index;
    packet.length = length;
    packet.headerLength = decoded.ipHeaderLength + decoded.transportHeaderLength;
    packet.tcpFlags = decoded.tcpFlags;
    packet.transportHeaderLength = decoded.transportHeaderLength;
    packet.payloadLength = decoded.payloadLength;
    packet.window = decoded.tcpWindow;

    const v4 = decoded.ipVersion === 4;
    const endpoints = this.endpoints;
    const protocol = decoded.protocol;
    const sport = decoded.srcPort;
    const dport = decoded.dstPort;
    const hash = endpoints.load(decoded.src, decoded.dst, v4, sport, dport, protocol);

    const table = this.index.table;
    const mask = this.index.mask;
    const wordChunks = this.store.wordChunks;
    const kind = protocol | (decoded.ipVersion << 8);
    const fwdPorts = (sport << 16) | dport;
    const bwdPorts = (dport << 16) | sport;
    let slot = -1;
    let forward = true;
    let key = 0;
    for (let probe = hash & mask, entry = table[2 * probe + 1]; entry !== 0; entry = table[2 * probe + 1]) {
      if (table[2 * probe] === hash) {
        const record = entry - 1;
        const words = wordChunks[record >>> CHUNK_SHIFT];
        const w = RECORD_WORDS * (record & CHUNK_MASK);
        key = words[w + W_KEY];
        if ((key & 0xffff) === kind) {
          const ports = words[w + W_PORTS];
          if (ports === fwdPorts && endpoints.isForward(words, w)) {
            slot = record;
            break;
          }
          if (ports === bwdPorts && endpoints.isBackward(words, w)) {
            slot = record;
            forward = false;
            break;
          }
        }
      }
      probe = (probe + 1) & mask;
    }

    // The packet's time in its session's frame: ns since the session's base second (its first packet's second), so
    // exact however far the packet is from the capture's start. A new session's base is this packet's second: its
    // time is the nanoseconds, read back from the record as a double (a phi of that int and the double below would
    // be boxed, a heap number on every packet).
    let time = 0;
    if (slot >= 0) {
      const numbers = this.store.numberChunks[slot >>> CHUNK_SHIFT];
      const n = RECORD_NUMBERS * (slot & CHUNK_MASK);
      time = (sec - numbers[n + N_BASE_SEC]) * NS + nsec;
      // The expiry wheel may not have reached an idle session yet: the idle rule is checked here too (a time beyond
      // 2^53 ns is rounded, but then far beyond either timeout). A new SYN ends a closed TCP session; the close bit
      // is tested first, as most sessions are open.
      const gap = time - numbers[n + N_LAST_TIME];
      packet.gap = gap;
      const idle = gap > this.idleTimeoutNs;
      if (
        idle ||
        time - numbers[n + N_FIRST_TIME] > this.activeTimeoutNs ||
        ((key & CLOSED) !== 0 && protocol === 6 && (packet.tcpFlags & SYN_ACK) === TcpFlag.SYN)
      ) {
        this.closeAs(slot, idle ? EndReason.Idle : EndReason.Active);
        this.end(slot);
        slot = -1;
      }
    }
    const session = this.session;
    if (slot < 0) {
      packet.gap = -1;
      slot = this.open(decoded, hash, index);
      time = this.store.numberChunks[slot >>> CHUNK_SHIFT][RECORD_NUMBERS * (slot & CHUNK_MASK) + N_FIRST_TIME];
      packet.time = time;
      session.point(slot);
      const words = wordChunks[slot >>> CHUNK_SHIFT];
      const w = RECORD_WORDS * (slot & CHUNK_MASK);
      forward = words[w + W_PORTS] === fwdPorts && endpoints.isForward(words, w);
      packet.slot = slot;
      packet.forward = forward;
      this.hooks.onStart(session, packet);
    } else {
      packet.time = time;
      session.point(slot);
    }

    packet.slot = slot;
    packet.forward = forward;
    const n = RECORD_NUMBERS * (slot & CHUNK_MASK);
    const store = this.store.numberChunks[slot >>> CHUNK_SHIFT];
    store[n + N_LAST_TIME] = time;
    if (forward) {
      store[n + N_FWD_PACKETS]++;
      store[n + N_FWD_BYTES] += length;
    } else {
      store[n + N_BWD_PACKETS]++;
      store[n + N_BWD_BYTES] += length;
    }
    // Most TCP packets carry neither flag: tested here, so that they cost no call.
    if (protocol === 6 && (packet.tcpFlags & (TcpFlag.RST | TcpFlag.FIN)) !== 0)
      this.trackClose(slot, packet.tcpFlags, forward);
    this.hooks.onPacket(session, packet);
  }

  /**
   * Capture time went on to `tsSec` + `tsNsec` without a packet for this table (one of another table's, or the end
   * of the capture): ends the sessions idle by then, and flush() tells idle from end of capture at that time. A
   * later packet earlier than it counts as out of order.
   */
  advance(tsSec: number, tsNsec: number): void {
    if (tsSec > this.clockSec || (tsSec === this.clockSec && tsNsec > this.clockNsec)) {
      if (Number.isNaN(this.frameSec)) this.startFrame(tsSec);
      this.clockSec = tsSec;
      this.clockNsec = tsNsec;
      this.clock = (tsSec - this.frameSec) * NS + tsNsec;
    }
    if (this.clock - this.idleTimeoutNs >= this.wheel.due) this.expireDue();
  }

  /** The end of the capture: ends every session (those idle for longer than the timeout with reason idle). */
  flush(): void {
    const sec = this.clockSec;
    const nsec = this.clockNsec;
    this.wheel.drain((slot) => {
      const idle =
        sinceLast(this.store.numberChunks[slot >>> CHUNK_SHIFT], RECORD_NUMBERS * (slot & CHUNK_MASK), sec, nsec) >
        this.idleTimeoutNs;
      this.closeAs(slot, idle ? EndReason.Idle : EndReason.EndOfCapture);
      this.end(slot);
    });
  }

  /** The first time seen: the expiry wheel's frame counts from its second. */
  private startFrame(sec: number): void {
    this.frameSec = sec;
    this.wheel.frameSec = sec;
  }

  /**
   * Ends the sessions idle at the clock. The wheel notices a session at most idleTimeout / 1024 after it became
   * idle, and decides exactly (sinceLast) which are; `add` and `flush` apply the idle rule exactly too, so only the
   * moment of the `onEnd` call can vary, never which packets a session has.
   */
  private expireDue(): void {
    this.wheel.expire(this.clock - this.idleTimeoutNs, this.clockSec, this.clockNsec, this.endIdle);
  }

  /** A TCP packet with RST or FIN: a RST closes the session, and so does the second side's FIN. */
  private trackClose(slot: number, flags: number, forward: boolean): void {
    const words = this.store.wordChunks[slot >>> CHUNK_SHIFT];
    const at = RECORD_WORDS * (slot & CHUNK_MASK) + W_KEY;
    const state = words[at];
    if (state & CLOSED) return;
    if (flags & TcpFlag.RST) {
      words[at] = withReason(state | CLOSED, EndReason.Rst);
      return;
    }
    const fins = state | (forward ? FIN_FWD : FIN_BWD);
    if ((fins & (FIN_FWD | FIN_BWD)) === (FIN_FWD | FIN_BWD)) {
      words[at] = withReason(fins | CLOSED, EndReason.Fin);
    } else {
      words[at] = fins;
    }
  }

  /** Records why the session in `slot` ends, unless a FIN or RST closed it (which said why). */
  private closeAs(slot: number, reason: EndReason): void {
    const words = this.store.wordChunks[slot >>> CHUNK_SHIFT];
    const at = RECORD_WORDS * (slot & CHUNK_MASK) + W_KEY;
    if ((words[at] & CLOSED) === 0) words[at] = withReason(words[at], reason);
  }

  /**
   * Opens a record for a session (its end reason: end of capture) at the packet being added, whose time is the
   * clock (see add), and returns its slot.
   */
  private open(decoded: DecodedPacket, hash: number, index: number): number {
    const slot = this.free.length > 0 ? (this.free.pop() as number) : this.store.add();
    // A first packet that is a SYN-ACK answers a SYN the capture missed: its receiver opened the connection.
    const swap = decoded.protocol === 6 && (decoded.tcpFlags & SYN_ACK) === SYN_ACK;
    const words = this.store.wordChunks[slot >>> CHUNK_SHIFT];
    const w = RECORD_WORDS * (slot & CHUNK_MASK);
    this.endpoints.write(words, w, swap);
    const fwdPort = swap ? decoded.dstPort : decoded.srcPort;
    const bwdPort = swap ? decoded.srcPort : decoded.dstPort;
    words[w + W_PORTS] = (fwdPort << 16) | bwdPort;
    words[w + W_KEY] = decoded.protocol | (decoded.ipVersion << 8);
    words[w + W_HASH] = hash;
    const numbers = this.store.numberChunks[slot >>> CHUNK_SHIFT];
    const n = RECORD_NUMBERS * (slot & CHUNK_MASK);
    numbers[n + N_BASE_SEC] = this.clockSec;
    numbers[n + N_FIRST_TIME] = this.clockNsec;
    numbers[n + N_LAST_TIME] = this.clockNsec;
    numbers[n + N_FWD_BYTES] = 0;
    numbers[n + N_BWD_BYTES] = 0;
    numbers[n + N_FWD_PACKETS] = 0;
    numbers[n + N_BWD_PACKETS] = 0;
    numbers[n + N_SEQ] = this.started++;
    numbers[n + N_FIRST_INDEX] = index;
    this.index.insert(hash, slot);
    this.wheel.push(slot, words[w + W_GENERATION], this.clock);
    return slot;
  }

  private end(slot: number): void {
    const words = this.store.wordChunks[slot >>> CHUNK_SHIFT];
    const w = RECORD_WORDS * (slot & CHUNK_MASK);
    this.index.remove(words[w + W_HASH], slot);
    words[w + W_GENERATION]++;
    this.session.point(slot);
    this.hooks.onEnd(this.session);
    this.free.push(slot);
  }
}

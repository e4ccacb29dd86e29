// The flow table: groups TCP/UDP packets into bidirectional sessions and ends them by timeout, RST or FINs.
// Lookup is an open-addressing hash table on a symmetric hash of the endpoints; expiry is a timing wheel, so each
// packet costs O(1), touches only its own session, and memory follows the number of live sessions.
import { type DecodedPacket, TcpFlag } from "../decode/decoded-packet.js";
import { TracemillError } from "../errors.js";
import { EndpointKey } from "./endpoint-key.js";
import { ExpiryWheel } from "./expiry-wheel.js";
import { createFlowPacket, type FlowPacket } from "./flow-packet.js";
import type { FlowTableHooks, FlowTableOptions } from "./flow-table-options.js";
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
  private baseSec = Number.NaN;
  private clock = 0;
  /** The endpoints of the packet being added. */
  private readonly endpoints = new EndpointKey();

  constructor(
    private readonly hooks: FlowTableHooks,
    options: FlowTableOptions = {},
  ) {
    this.idleTimeoutNs = options.idleTimeoutNs ?? 120 * NS;
    this.activeTimeoutNs = options.activeTimeoutNs ?? 1800 * NS;
    for (const [name, value] of [
      ["idle timeout", this.idleTimeoutNs],
      ["active timeout", this.activeTimeoutNs],
    ] as const) {
      if (!Number.isFinite(value) || value <= 0) {
        throw new TracemillError("BAD_OPTION", `The ${name} must be a positive number of seconds.`, { value });
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

  /** The epoch second times count from: the first packet's second (NaN before any packet), unless set before it. */
  get timeBaseSec(): number {
    return this.baseSec;
  }

  /**
   * Sets the epoch second times count from, before the first packet: a caller that has times relative to a base of
   * its own may then give each packet as that base's seconds plus any number of nanoseconds.
   */
  set timeBaseSec(sec: number) {
    if (!Number.isNaN(this.baseSec) && this.baseSec !== sec) {
      throw new RangeError(`the time base is ${this.baseSec} already, not ${sec}`);
    }
    this.baseSec = sec;
  }

  /**
   * Adds a decoded TCP or UDP packet (its `kind` is Tcp or Udp and its ports are known). `length` is the byte count
   * to account for it. Sessions idle at this packet's time end first.
   */
  add(decoded: DecodedPacket, tsSec: number, tsNsec: number, length: number, index: number): void {
    if (Number.isNaN(this.baseSec)) this.baseSec = tsSec;
    let time = (tsSec - this.baseSec) * NS + tsNsec;
    if (time < this.clock) {
      this.outOfOrder++;
      time = this.clock;
    } else {
      this.clock = time;
    }
    // `time` goes to no call: a double argument is boxed, and V8 boxes the value once for every use, so a call
    // here (or to open() below) would allocate a number on every packet. The calls read this.clock, which is `time`.
    if (time - this.idleTimeoutNs >= this.wheel.due) this.expire(this.clock);

    const packet = this.packet;
    packet.decoded = decoded;
    packet.time = time;
    packet.index = index;
    packet.length = length;
    packet.headerLength = decoded.ipHeaderLength + decoded.transportHeaderLength;
    packet.tcpFlags = decoded.tcpFlags;

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

    if (slot >= 0) {
      const numbers = this.store.numberChunks[slot >>> CHUNK_SHIFT];
      const n = RECORD_NUMBERS * (slot & CHUNK_MASK);
      // The expiry wheel may not have reached an idle session yet: the idle rule is checked here too. A new SYN
      // ends a closed TCP session; the close bit is tested first, as most sessions are open.
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
      session.point(slot);
      const words = wordChunks[slot >>> CHUNK_SHIFT];
      const w = RECORD_WORDS * (slot & CHUNK_MASK);
      forward = words[w + W_PORTS] === fwdPorts && endpoints.isForward(words, w);
      packet.slot = slot;
      packet.forward = forward;
      this.hooks.onStart(session, packet);
    } else {
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
   * Ends sessions idle at `time` (ns since the time base). The wheel notices a session at most idleTimeout / 1024
   * after it became idle; `add` and `flush` apply the idle rule exactly, so only the moment of the `onEnd` call can
   * vary, never which packets a session has.
   */
  expire(time: number): void {
    this.wheel.expire(time - this.idleTimeoutNs, this.endIdle);
  }

  /** The end of the capture: ends every session (those idle for longer than the timeout with reason idle). */
  flush(): void {
    const limit = this.clock - this.idleTimeoutNs;
    this.wheel.drain((slot) => {
      const lastTime =
        this.store.numberChunks[slot >>> CHUNK_SHIFT][RECORD_NUMBERS * (slot & CHUNK_MASK) + N_LAST_TIME];
      this.closeAs(slot, lastTime < limit ? EndReason.Idle : EndReason.EndOfCapture);
      this.end(slot);
    });
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
    const time = this.clock;
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
    numbers[n + N_FIRST_TIME] = time;
    numbers[n + N_LAST_TIME] = time;
    numbers[n + N_FWD_BYTES] = 0;
    numbers[n + N_BWD_BYTES] = 0;
    numbers[n + N_FWD_PACKETS] = 0;
    numbers[n + N_BWD_PACKETS] = 0;
    numbers[n + N_BASE_SEC] = this.baseSec;
    numbers[n + N_SEQ] = this.started++;
    numbers[n + N_FIRST_INDEX] = index;
    this.index.insert(hash, slot);
    this.wheel.push(slot, words[w + W_GENERATION], time);
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

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
} from "./session.js";
import { SessionIndex } from "./session-index.js";

const SYN_ACK = TcpFlag.SYN | TcpFlag.ACK;
const NS = 1e9;

export class FlowTable<T> {
  readonly idleTimeoutNs: number;
  readonly activeTimeoutNs: number;
  /** Packets whose timestamp was earlier than an earlier packet's: counted at the latest time seen instead. */
  outOfOrder = 0;
  /** Sessions started so far (the next session's seq). */
  started = 0;
  private readonly index = new SessionIndex();
  /** Every record by its store slot. */
  private readonly records: Session<T>[] = [];
  private readonly wheel: ExpiryWheel<T>;
  private readonly endIdle = (session: Session<T>) => {
    if (!session.closed) session.endReason = EndReason.Idle;
    this.end(session);
  };
  private readonly pool: Session<T>[] = [];
  private readonly store: SessionStore;
  private readonly packet: FlowPacket;
  private baseSec = Number.NaN;
  private clock = 0;
  /** The endpoints of the packet being added. */
  private readonly endpoints = new EndpointKey();

  constructor(
    private readonly hooks: FlowTableHooks<T>,
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
    this.wheel = new ExpiryWheel<T>(this.idleTimeoutNs, this.records, this.store, this.index);
    this.packet = createFlowPacket();
  }

  /** Sessions currently in the table (open, or closed and waiting for late packets). */
  get liveSessions(): number {
    return this.index.size;
  }

  /** The epoch second times count from: the first packet's second (NaN before any packet). */
  get timeBaseSec(): number {
    return this.baseSec;
  }

  /**
   * Adds a decoded TCP or UDP packet (its `kind` is Tcp or Udp and its ports are known). `length` is the byte count
   * to account for it. Sessions idle at this packet's time end first.
   */
  add(decoded: DecodedPacket, tsSec: number, tsNsec: number, length: number, index: number): Session<T> {
    if (Number.isNaN(this.baseSec)) this.baseSec = tsSec;
    let time = (tsSec - this.baseSec) * NS + tsNsec;
    if (time < this.clock) {
      this.outOfOrder++;
      time = this.clock;
    } else {
      this.clock = time;
    }
    if (time - this.idleTimeoutNs >= this.wheel.due) this.expire(time);

    const packet = this.packet;
    packet.decoded = decoded;
    packet.time = time;
    packet.index = index;
    packet.length = length;
    packet.headerLength = decoded.ipHeaderLength + decoded.transportHeaderLength;
    packet.tcpFlags = decoded.tcpFlags;

    const v4 = decoded.ipVersion === 4;
    const endpoints = this.endpoints;
    endpoints.load(decoded.src, decoded.dst, v4);
    const protocol = decoded.protocol;
    const sport = decoded.srcPort;
    const dport = decoded.dstPort;
    const hash = endpoints.hash(sport, dport, protocol);

    const table = this.index.table;
    const mask = this.index.mask;
    const wordChunks = this.store.wordChunks;
    const kind = protocol | (decoded.ipVersion << 8);
    const fwdPorts = (sport << 16) | dport;
    const bwdPorts = (dport << 16) | sport;
    let slot = -1;
    let forward = true;
    for (let probe = hash & mask, entry = table[2 * probe + 1]; entry !== 0; entry = table[2 * probe + 1]) {
      if (table[2 * probe] === hash) {
        const record = entry - 1;
        const words = wordChunks[record >>> CHUNK_SHIFT];
        const w = RECORD_WORDS * (record & CHUNK_MASK);
        if ((words[w + W_KEY] & 0xffff) === kind) {
          const ports = words[w + W_PORTS];
          if (ports === fwdPorts && endpoints.isForward(words, w)) {
            slot = entry - 1;
            break;
          }
          if (ports === bwdPorts && endpoints.isBackward(words, w)) {
            slot = entry - 1;
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
      const closed = (wordChunks[slot >>> CHUNK_SHIFT][RECORD_WORDS * (slot & CHUNK_MASK) + W_KEY] & CLOSED) !== 0;
      const newSyn = protocol === 6 && closed && (packet.tcpFlags & SYN_ACK) === TcpFlag.SYN;
      // The expiry wheel may not have reached an idle session yet: the idle rule is checked here too.
      const idle = time - numbers[n + N_LAST_TIME] > this.idleTimeoutNs;
      if (newSyn || idle || time - numbers[n + N_FIRST_TIME] > this.activeTimeoutNs) {
        const session = this.records[slot];
        if (!closed) session.endReason = idle ? EndReason.Idle : EndReason.Active;
        this.end(session);
        slot = -1;
      }
    }
    let session: Session<T>;
    if (slot < 0) {
      session = this.open(decoded, hash, time, index);
      slot = session.slot;
      const words = wordChunks[slot >>> CHUNK_SHIFT];
      const w = RECORD_WORDS * (slot & CHUNK_MASK);
      forward = words[w + W_PORTS] === fwdPorts && endpoints.isForward(words, w);
      packet.slot = slot;
      packet.forward = forward;
      this.hooks.onStart(session, packet);
    } else {
      session = this.records[slot];
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
      this.trackClose(session, packet.tcpFlags, forward);
    this.hooks.onPacket(session, packet);
    return session;
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
    this.wheel.drain((session) => {
      if (!session.closed) session.endReason = session.lastTime < limit ? EndReason.Idle : EndReason.EndOfCapture;
      this.end(session);
    });
  }

  /** A TCP packet with RST or FIN: a RST closes the session, and so does the second side's FIN. */
  private trackClose(session: Session<T>, flags: number, forward: boolean): void {
    const slot = session.slot;
    const words = this.store.wordChunks[slot >>> CHUNK_SHIFT];
    const at = RECORD_WORDS * (slot & CHUNK_MASK) + W_KEY;
    const state = words[at];
    if (state & CLOSED) return;
    if (flags & TcpFlag.RST) {
      words[at] = state | CLOSED;
      session.endReason = EndReason.Rst;
      return;
    }
    const fins = state | (forward ? FIN_FWD : FIN_BWD);
    if ((fins & (FIN_FWD | FIN_BWD)) === (FIN_FWD | FIN_BWD)) {
      words[at] = fins | CLOSED;
      session.endReason = EndReason.Fin;
    } else {
      words[at] = fins;
    }
  }

  private open(decoded: DecodedPacket, hash: number, time: number, index: number): Session<T> {
    const session = this.pool.pop() ?? this.newRecord();
    // A first packet that is a SYN-ACK answers a SYN the capture missed: its receiver opened the connection.
    const swap = decoded.protocol === 6 && (decoded.tcpFlags & SYN_ACK) === SYN_ACK;
    const slot = session.slot;
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
    session.endReason = EndReason.EndOfCapture;
    this.index.insert(hash, slot);
    this.wheel.push(slot, words[w + W_GENERATION], time);
    return session;
  }

  private newRecord(): Session<T> {
    const slot = this.store.add();
    const session = new Session<T>(this.hooks.createState(slot), this.store, slot);
    this.records[session.slot] = session;
    return session;
  }

  private end(session: Session<T>): void {
    const slot = session.slot;
    this.index.remove(session.hash, slot);
    this.store.wordChunks[slot >>> CHUNK_SHIFT][RECORD_WORDS * (slot & CHUNK_MASK) + W_GENERATION]++;
    this.hooks.onEnd(session);
    this.pool.push(session);
  }
}

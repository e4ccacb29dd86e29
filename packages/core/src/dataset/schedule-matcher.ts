// Which windows of a schedule a session may belong to, from its protocol, endpoints and ports. The windows are
// indexed by the prefixes they name, one map per prefix length in use: an endpoint's windows are a map look-up per
// length (a schedule uses a few: /32, /24, …), and a session near no window costs those look-ups and nothing else.
import { masksOf, wordAt } from "./address-set.js";
import { type CompiledSchedule, type CompiledWindow, portAllowed } from "./schedule.js";

/** The windows naming each prefix of one length, by the prefix's key. */
interface LengthIndex {
  /** The length's masks, one per word (one word for IPv4, four for IPv6). */
  masks: Int32Array;
  windows: Map<number, Int32Array>;
}

export class ScheduleMatcher {
  readonly windows: readonly CompiledWindow[];
  private readonly v4: LengthIndex[];
  private readonly v6: LengthIndex[];
  /** When the last window ends: a session starting later has none (a capture of a day the schedule does not cover). */
  private readonly lastEndUs: number;
  /** Per window, the last query in which the first endpoint was found in it, and the last that tested it. */
  private readonly marked: Float64Array;
  private readonly tested: Float64Array;
  private query = 0;
  // The query under way: the endpoints' words, the protocol and ports, and the time the session starts.
  private readonly aWords = new Int32Array(4);
  private readonly bWords = new Int32Array(4);
  private readonly masked = new Int32Array(4);
  private isV4 = true;
  private protocol = 0;
  private aPort = 0;
  private bPort = 0;
  private fromUs = 0;

  constructor(schedule: CompiledSchedule) {
    this.windows = schedule.windows;
    this.marked = new Float64Array(this.windows.length);
    this.tested = new Float64Array(this.windows.length);
    const v4 = new Map<number, Map<number, number[]>>();
    const v6 = new Map<number, Map<number, number[]>>();
    this.windows.forEach((window, w) => {
      for (const set of [window.attackers, window.victims]) {
        for (const [word, prefix] of set.prefixesV4) addTo(v4, prefix, word, w);
        for (const [w0, w1, w2, w3, prefix] of set.prefixesV6) addTo(v6, prefix, keyV6(w0, w1, w2, w3), w);
      }
    });
    this.v4 = lengthIndexes(v4, 32);
    this.v6 = lengthIndexes(v6, 128);
    this.lastEndUs = this.windows.reduce((last, window) => Math.max(last, window.endUs), Number.NEGATIVE_INFINITY);
  }

  /**
   * The windows a session may belong to: of its protocol (6 or 17), with one endpoint among the attackers and the
   * other among the victims (either way round: a reverse connection belongs to the attack), the victim's port among
   * the window's ports, and an end after `fromUs` (the session's first packet, UTC microseconds, rounded down).
   * Endpoints `a` (the forward side) and `b` are 4 or 16 bytes by `ipVersion`. Writes each into `out` (at least as
   * long as the schedule's windows) as `window << 1 | attackerForward`, by ascending window index, and returns how
   * many. When both ways round match, the forward side is the attacker.
   */
  find(
    protocol: number,
    ipVersion: 4 | 6,
    a: Uint8Array,
    aPort: number,
    b: Uint8Array,
    bPort: number,
    fromUs: number,
    out: Int32Array,
  ): number {
    if (fromUs >= this.lastEndUs) return 0;
    const v4 = ipVersion === 4;
    const lengths = v4 ? this.v4 : this.v6;
    load(a, this.aWords, v4);
    this.query++;
    // A window holds the session only if it names both endpoints: mark the first's windows, test the second's marked.
    let marked = false;
    for (let i = 0; i < lengths.length; i++) {
      const list = this.listOf(lengths[i], this.aWords, v4);
      if (list === undefined) continue;
      for (let j = 0; j < list.length; j++) this.marked[list[j]] = this.query;
      marked = true;
    }
    if (!marked) return 0;
    load(b, this.bWords, v4);
    this.isV4 = v4;
    this.protocol = protocol;
    this.aPort = aPort;
    this.bPort = bPort;
    this.fromUs = fromUs;
    let count = 0;
    for (let i = 0; i < lengths.length; i++) {
      const list = this.listOf(lengths[i], this.bWords, v4);
      if (list === undefined) continue;
      for (let j = 0; j < list.length; j++) {
        const w = list[j];
        if (this.marked[w] !== this.query || this.tested[w] === this.query) continue;
        this.tested[w] = this.query;
        const way = this.test(this.windows[w]);
        if (way >= 0) out[count++] = (w << 1) | way;
      }
    }
    // Insertion sort: a session has a handful of candidates.
    for (let i = 1; i < count; i++) {
      const value = out[i];
      let j = i - 1;
      for (; j >= 0 && out[j] > value; j--) out[j + 1] = out[j];
      out[j + 1] = value;
    }
    return count;
  }

  /** The windows naming the prefix of one length that holds the address in `words`. */
  private listOf(index: LengthIndex, words: Int32Array, v4: boolean): Int32Array | undefined {
    const masks = index.masks;
    if (v4) return index.windows.get(words[0] & masks[0]);
    const m = this.masked;
    for (let i = 0; i < 4; i++) m[i] = words[i] & masks[i];
    return index.windows.get(keyV6(m[0], m[1], m[2], m[3]));
  }

  /** 1 when the forward side attacks, 0 when the backward side does, -1 when the window does not hold the session. */
  private test(window: CompiledWindow): number {
    if (window.endUs <= this.fromUs) return -1;
    if (window.protocol !== 0 && window.protocol !== this.protocol) return -1;
    if (this.has(window, true) && portAllowed(window.ports, this.bPort)) return 1;
    if (this.has(window, false) && portAllowed(window.ports, this.aPort)) return 0;
    return -1;
  }

  /** Whether the forward (`forwardAttacks`) or backward side is among the attackers and the other among the victims. */
  private has(window: CompiledWindow, forwardAttacks: boolean): boolean {
    const attacker = forwardAttacks ? this.aWords : this.bWords;
    const victim = forwardAttacks ? this.bWords : this.aWords;
    if (this.isV4) return window.attackers.hasV4(attacker[0]) && window.victims.hasV4(victim[0]);
    return window.attackers.hasV6(attacker) && window.victims.hasV6(victim);
  }
}

function load(address: Uint8Array, words: Int32Array, v4: boolean): void {
  words[0] = wordAt(address, 0);
  if (v4) return;
  words[1] = wordAt(address, 4);
  words[2] = wordAt(address, 8);
  words[3] = wordAt(address, 12);
}

/** An IPv6 prefix's key: equal prefixes have equal keys; a collision only costs a test. */
function keyV6(w0: number, w1: number, w2: number, w3: number): number {
  return (Math.imul(w0, 0x9e3779b1) ^ Math.imul(w1, 0x85ebca6b) ^ Math.imul(w2, 0xc2b2ae35) ^ w3) | 0;
}

function addTo(byLength: Map<number, Map<number, number[]>>, prefix: number, key: number, w: number): void {
  let lists = byLength.get(prefix);
  if (lists === undefined) {
    lists = new Map();
    byLength.set(prefix, lists);
  }
  const list = lists.get(key);
  if (list === undefined) lists.set(key, [w]);
  else if (list.at(-1) !== w) list.push(w);
}

function lengthIndexes(byLength: Map<number, Map<number, number[]>>, bits: number): LengthIndex[] {
  return [...byLength]
    .sort(([a], [b]) => b - a)
    .map(([prefix, lists]) => ({
      masks: Int32Array.from(masksOf(prefix, bits)),
      windows: new Map([...lists].map(([key, list]) => [key, Int32Array.from(list)])),
    }));
}

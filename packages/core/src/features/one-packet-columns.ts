// The measuring columns of one-packet sessions, formatted once per distinct packet and copied after that.

/** Cache entries: direct-mapped, so memory stays fixed whatever the capture (at most ENTRIES × MAX_BYTES). */
const ENTRIES = 4096;
/** Longer column text is not kept (a one-packet row's measuring columns take about 100 bytes). */
const MAX_BYTES = 512;

/**
 * Three sessions in four have a single packet, and the columns that measure such a session (the groups of kind
 * "measuring": counts, lengths, gaps, flags, rates…) depend only on that packet's length, header length, TCP flags,
 * protocol and direction, and for groups that declare firstPacketDetail its payload length, window and transport
 * header length (FeatureGroup.kind). A run of such groups' text is kept by that key, so a later one-packet session
 * with the same packet gets a copy instead of a replay into a state and tens of numbers formatted.
 */
export class OnePacketColumns {
  /** Per entry: the packet's length, the rest of its key, then the two detail words (-1: empty). */
  private readonly keys = new Int32Array(4 * ENTRIES).fill(-1);
  private readonly texts: (Uint8Array | undefined)[] = new Array(ENTRIES);
  /** The entry of the last lookup (-1: a key out of range, which is never kept). */
  private entry = -1;
  private length = 0;
  private rest = 0;
  private detail0 = 0;
  private detail1 = 0;

  /**
   * The text kept for this packet (bytes of whole columns, each with its leading comma), or undefined; keep() then
   * keeps the text for it. Lengths from 2^24, header lengths from 2^11 and flags beyond a byte are never kept.
   * `detail0` and `detail1`: more of the packet the text depends on, as int32 words (0 when nothing more).
   */
  lookup(
    length: number,
    headerLength: number,
    tcpFlags: number,
    protocol: number,
    forward: boolean,
    detail0 = 0,
    detail1 = 0,
  ): Uint8Array | undefined {
    if (length >= 0x1000000 || length < 0 || headerLength >= 0x800 || headerLength < 0 || tcpFlags >>> 8 !== 0) {
      this.entry = -1;
      return undefined;
    }
    const rest = (headerLength << 10) | (tcpFlags << 2) | (protocol === 6 ? 2 : 0) | (forward ? 1 : 0);
    const mixed =
      length ^ Math.imul(rest, 0x9e3779b1) ^ Math.imul(detail0 ^ Math.imul(detail1, 0x27d4eb2f), 0x165667b1);
    const h = Math.imul(mixed, 0x85ebca6b);
    const entry = (h ^ (h >>> 15)) & (ENTRIES - 1);
    this.entry = entry;
    this.length = length;
    this.rest = rest;
    this.detail0 = detail0;
    this.detail1 = detail1;
    const keys = this.keys;
    const k = 4 * entry;
    return keys[k] === length && keys[k + 1] === rest && keys[k + 2] === detail0 && keys[k + 3] === detail1
      ? this.texts[entry]
      : undefined;
  }

  /** Keeps bytes [start, end) of `bytes` as the text of the last lookup's packet (replacing its entry's text). */
  keep(bytes: Uint8Array, start: number, end: number): void {
    const entry = this.entry;
    if (entry < 0 || end - start > MAX_BYTES) return;
    this.keys[4 * entry] = this.length;
    this.keys[4 * entry + 1] = this.rest;
    this.keys[4 * entry + 2] = this.detail0;
    this.keys[4 * entry + 3] = this.detail1;
    this.texts[entry] = bytes.slice(start, end);
  }
}

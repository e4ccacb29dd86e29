// Suricata keys a flow by its 5-tuple and the ids of up to three VLAN tags (vlan.use-for-tracking, on by default),
// a missing tag counting as id 0: the split keys sessions the same way, by one number per VLAN stack.
import { type DecodedPacket, MAX_VLAN_IDS } from "@tracemill/core";

/** No tag, or tags whose ids are all 0 (Suricata compares ids, not how many tags there were). */
export const NO_VLAN = 0;
/** More tags than Suricata decodes: it takes such a packet into no flow. */
export const UNTRACKED_VLAN = -1;

/** Ids outer first, 12 bits each (0 for a missing tag), as one exact number of 36 bits. */
export function vlanKey(outer: number, middle: number, inner: number): number {
  return outer + middle * 4096 + inner * 16777216;
}

/** The key of `count` tags whose ids (outer first, up to MAX_VLAN_IDS of them) are in `ids`. */
export function vlanKeyOfIds(ids: Uint16Array, count: number): number {
  if (count === 0) return NO_VLAN;
  if (count > MAX_VLAN_IDS) return UNTRACKED_VLAN;
  return vlanKey(ids[0] & 0x0fff, count > 1 ? ids[1] & 0x0fff : 0, count > 2 ? ids[2] & 0x0fff : 0);
}

/** The key of a decoded packet's VLAN stack. */
export function packetVlanKey(d: DecodedPacket): number {
  return d.vlanCount === 0 ? NO_VLAN : vlanKeyOfIds(d.vlanIds, d.vlanCount);
}

/**
 * The key of an EVE "vlan" array (`[10]`, `[100,10]`: outer first) at b[at, end): the index past it in `next[0]`, or
 * -1 there when it is not an array of at most MAX_VLAN_IDS whole numbers below 4096.
 */
export function readEveVlanKey(b: Uint8Array, at: number, end: number, next: Int32Array): number {
  next[0] = -1;
  if (b[at] !== 91) return NO_VLAN;
  let key = 0;
  let scale = 1;
  let i = at + 1;
  for (let count = 0; count < MAX_VLAN_IDS; count++) {
    let id = 0;
    const from = i;
    while (i < end && b[i] >= 48 && b[i] <= 57 && i - from < 4) id = id * 10 + b[i++] - 48;
    if (i === from || id > 4095) return NO_VLAN;
    key += id * scale;
    scale *= 4096;
    if (b[i] === 93) {
      next[0] = i + 1;
      return key;
    }
    if (b[i] !== 44) return NO_VLAN;
    i++;
  }
  return NO_VLAN;
}

/** As readEveVlanKey, for an EVE line read as text: NO_VLAN when it has no "vlan" array. */
export function eveVlanKeyOfText(text: string): number {
  const ids = /"vlan":\[(\d{1,4})(?:,(\d{1,4}))?(?:,(\d{1,4}))?\]/.exec(text);
  if (!ids) return NO_VLAN;
  return vlanKey(Number(ids[1]), Number(ids[2] ?? 0), Number(ids[3] ?? 0));
}

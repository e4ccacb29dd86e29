// ERF has no magic number: a start is ERF when its first records look like ERF records (docs/formats.md).
import {
  ERF_HEADER,
  ERF_TYPE_META,
  ERF_TYPE_PAD,
  erfLinkType,
  isDefinedErfType,
  LINKTYPE_ETHERNET,
} from "../capture/erf-types.js";

const ONE_DAY = 86400;
const RECORDS_CHECKED = 4;

/**
 * Accepts when the first records (up to 4 that fit) have defined types and lengths of at least their headers, the
 * first one a packet, padding or provenance (meta) record, and their timestamps lie within a day of each other. When
 * `complete` says the bytes are the whole file, the first record must also end within them: a short text file whose
 * bytes happen to pass for one record header would otherwise be taken for ERF.
 */
export function looksLikeErf(bytes: Uint8Array, complete: boolean): boolean {
  if (bytes.length < ERF_HEADER) return false;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 0;
  let firstSeconds = -1;
  for (let records = 0; records < RECORDS_CHECKED && p + ERF_HEADER <= bytes.length; records++) {
    const type = view.getUint8(p + 8) & 0x7f;
    const rlen = view.getUint16(p + 10, false);
    const seconds = view.getUint32(p + 4, true);
    const header = erfLinkType(type) === LINKTYPE_ETHERNET ? ERF_HEADER + 2 : ERF_HEADER;
    if (!isDefinedErfType(type) || rlen < header) return false;
    if (records === 0) {
      if (erfLinkType(type) < 0 && type !== ERF_TYPE_PAD && type !== ERF_TYPE_META) return false;
      if (complete && rlen > bytes.length) return false;
    }
    // A provenance record's time is when it was written, which need not be near the packets'.
    if (type !== ERF_TYPE_META) {
      if (firstSeconds < 0) firstSeconds = seconds;
      else if (Math.abs(seconds - firstSeconds) > ONE_DAY) return false;
    }
    p += rlen;
  }
  return true;
}

// pcapng options (code, length, value padded to 4 bytes) as found in section, interface and packet blocks.
import { decodeUtf8 } from "./utf8.js";

export const OPT_END = 0;
export const OPT_COMMENT = 1;
export const SHB_HARDWARE = 2;
export const SHB_OS = 3;
export const SHB_USERAPPL = 4;
export const IF_NAME = 2;
export const IF_DESCRIPTION = 3;
export const IF_TSRESOL = 9;
export const IF_TSOFFSET = 14;

export interface PcapngOption {
  code: number;
  /** The value's bytes (a view into the block). */
  value: Uint8Array;
}

/**
 * The options between start and end. Returns the reason as a string when an option runs past the block
 * (a damaged block), the options otherwise.
 */
export function readOptions(
  buf: Uint8Array,
  view: DataView,
  start: number,
  end: number,
  littleEndian: boolean,
): PcapngOption[] | string {
  const options: PcapngOption[] = [];
  let p = start;
  while (p + 4 <= end) {
    const code = view.getUint16(p, littleEndian);
    const length = view.getUint16(p + 2, littleEndian);
    if (code === OPT_END) break;
    if (p + 4 + length > end) {
      return `option ${code} of length ${length} runs past the end of its block`;
    }
    options.push({ code, value: buf.subarray(p + 4, p + 4 + length) });
    p += 4 + ((length + 3) & ~3);
  }
  return options;
}

export function optionText(option: PcapngOption): string {
  return decodeUtf8(option.value);
}

/** A signed 64-bit option value (if_tsoffset) in the section's byte order, as a number. */
export function optionInt64(option: PcapngOption, littleEndian: boolean): number | undefined {
  if (option.value.length < 8) return undefined;
  const v = new DataView(option.value.buffer, option.value.byteOffset, 8);
  const hi = v.getInt32(littleEndian ? 4 : 0, littleEndian);
  const lo = v.getUint32(littleEndian ? 0 : 4, littleEndian);
  return hi * 4294967296 + lo;
}

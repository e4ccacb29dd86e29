// Arrow arrays read where parquet-wasm decoded them, in its WebAssembly memory, through the Arrow C data interface
// (https://arrow.apache.org/docs/format/CDataInterface.html): the column's buffers are viewed in place, with no Arrow
// IPC written and parsed again between the reader and the explorer. The structures as wasm32 lays them out: pointers
// of 4 bytes, 64-bit integers aligned to 8.

/** struct ArrowSchema: format, name, metadata, flags, n_children, children, dictionary, release, private_data. */
export interface CSchema {
  format: string;
  name: string;
  children: number[];
  /** Non-zero for a dictionary-encoded column. */
  dictionary: number;
}

/** struct ArrowArray: length, null_count, offset, n_buffers, n_children, buffers, children, dictionary, … */
export interface CArray {
  length: number;
  nullCount: number;
  offset: number;
  /** Addresses of the buffers (0 for an absent validity bitmap). */
  buffers: number[];
  children: number[];
}

const pointers = (memory: DataView, at: number, count: number) =>
  Array.from({ length: count }, (_, i) => memory.getUint32(at + 4 * i, true));

function text(memory: ArrayBuffer, at: number): string {
  if (at === 0) return "";
  const bytes = new Uint8Array(memory);
  let end = at;
  while (bytes[end] !== 0) end++;
  return new TextDecoder().decode(bytes.subarray(at, end));
}

export function readSchema(memory: ArrayBuffer, at: number): CSchema {
  const view = new DataView(memory);
  const children = Number(view.getBigInt64(at + 24, true));
  return {
    format: text(memory, view.getUint32(at, true)),
    name: text(memory, view.getUint32(at + 4, true)),
    children: pointers(view, view.getUint32(at + 32, true), children),
    dictionary: view.getUint32(at + 36, true),
  };
}

export function readArray(memory: ArrayBuffer, at: number): CArray {
  const view = new DataView(memory);
  const int64 = (offset: number) => Number(view.getBigInt64(at + offset, true));
  return {
    length: int64(0),
    nullCount: int64(8),
    offset: int64(16),
    buffers: pointers(view, view.getUint32(at + 40, true), int64(24)),
    children: pointers(view, view.getUint32(at + 44, true), int64(32)),
  };
}

export type TypedArrayOf<T> = {
  new (buffer: ArrayBuffer, byteOffset: number, length: number): T;
  readonly BYTES_PER_ELEMENT: number;
};

/** `count` elements at `at`, viewed in place (copied when the address is not a multiple of the element's size). */
export function typed<T>(type: TypedArrayOf<T>, memory: ArrayBuffer, at: number, count: number): T {
  if (at % type.BYTES_PER_ELEMENT === 0) return new type(memory, at, count);
  const copy = new Uint8Array(memory, at, count * type.BYTES_PER_ELEMENT).slice();
  return new type(copy.buffer, 0, count);
}

/** Whether each element of an array is valid (not null), from its validity bitmap; null when all are. */
export function validity(memory: ArrayBuffer, array: CArray): ((index: number) => boolean) | null {
  if (array.nullCount === 0 || array.buffers[0] === 0) return null;
  const bits = new Uint8Array(memory, array.buffers[0], (array.offset + array.length + 7) >> 3);
  return (index) => {
    const bit = array.offset + index;
    return (bits[bit >> 3] & (1 << (bit & 7))) !== 0;
  };
}

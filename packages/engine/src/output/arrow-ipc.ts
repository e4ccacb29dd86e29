// Batches of typed columns as Arrow IPC streams, the form parquet-wasm takes rows in (Table.fromIPCStream), written
// here for the few types a Tracemill row has, into one buffer reused from batch to batch: apache-arrow's writer made
// a fresh buffer of every batch (first-touched memory costs more than the copy), and loading it was a large part of a
// small capture's Parquet run.
// Format: the Arrow columnar spec's "IPC streaming format" (each message a 0xFFFFFFFF marker, the metadata's length,
// the metadata as a FlatBuffer, the body), metadata per its Message.fbs and Schema.fbs.
import type { Column, ColumnValues } from "@tracemill/core";

/** Message.fbs: MetadataVersion.V5, MessageHeader.Schema and .RecordBatch. */
const V5 = 4;
const SCHEMA = 1;
const RECORD_BATCH = 3;
/** Schema.fbs's Type union: Int, FloatingPoint, Utf8, Timestamp, List. */
const TYPE_INT = 2;
const TYPE_FLOAT = 3;
const TYPE_UTF8 = 5;
const TYPE_TIMESTAMP = 10;
const TYPE_LIST = 12;
const DOUBLE = 2;
const NANOSECOND = 3;

/** A table field of a FlatBuffer: its vtable slot, inline size, and either a scalar or a child written after it. */
interface Slot {
  readonly slot: number;
  readonly size: 1 | 2 | 4 | 8;
  readonly value?: number;
  /** Writes the child (a string, vector or table) at the end of the buffer and returns its position. */
  readonly child?: (out: FlatWriter) => number;
}

/**
 * A FlatBuffer written front to back: every child after the field that points to it (uoffsets only point forward),
 * every vtable just before its table; positions aligned relative to the buffer's start, as readers verify them.
 */
class FlatWriter {
  bytes = new Uint8Array(1024);
  view = new DataView(this.bytes.buffer);
  at = 0;

  /** Writes a root table; returns the FlatBuffer's bytes, padded to 8 (a view valid until the next use). */
  root(fields: readonly Slot[]): Uint8Array {
    this.at = 0;
    this.room(8);
    this.at = 4;
    const table = this.table(fields);
    this.view.setUint32(0, table, true);
    this.pad(8);
    return this.bytes.subarray(0, this.at);
  }

  table(fields: readonly Slot[]): number {
    const slots = fields.reduce((most, field) => Math.max(most, field.slot + 1), 0);
    const inline = [...fields].sort((a, b) => b.size - a.size);
    const wide = inline.some((field) => field.size === 8);
    let size = 4;
    const offsets = new Map<Slot, number>();
    for (const field of inline) {
      offsets.set(field, size);
      size += field.size;
    }
    this.pad(2);
    const vtable = this.at;
    this.room(4 + 2 * slots);
    this.view.setUint16(this.at, 4 + 2 * slots, true);
    this.view.setUint16(this.at + 2, size, true);
    for (let slot = 0; slot < slots; slot++) {
      const field = fields.find((f) => f.slot === slot);
      this.view.setUint16(this.at + 4 + 2 * slot, field === undefined ? 0 : offsets.get(field)!, true);
    }
    this.at += 4 + 2 * slots;
    // The soffset, then the 8-byte fields on an 8-byte boundary.
    this.pad(wide ? 8 : 4, wide ? 4 : 0);
    const table = this.at;
    this.room(size);
    this.bytes.fill(0, table, table + size);
    this.view.setInt32(table, table - vtable, true);
    for (const field of inline) {
      const at = table + offsets.get(field)!;
      const value = field.value ?? 0;
      if (field.size === 8) this.view.setBigInt64(at, BigInt(value), true);
      else if (field.size === 4) this.view.setUint32(at, value, true);
      else if (field.size === 2) this.view.setInt16(at, value, true);
      else this.bytes[at] = value;
    }
    this.at = table + size;
    for (const field of fields) {
      if (field.child === undefined) continue;
      const at = table + offsets.get(field)!;
      // The child first: writing it may grow the buffer, and with it replace `view`.
      const child = field.child(this);
      this.view.setUint32(at, child - at, true);
    }
    return table;
  }

  string(text: string): number {
    const bytes = new TextEncoder().encode(text);
    this.pad(4);
    const at = this.at;
    this.room(bytes.length + 5);
    this.view.setUint32(at, bytes.length, true);
    this.bytes.set(bytes, at + 4);
    this.bytes[at + 4 + bytes.length] = 0;
    this.at = at + 5 + bytes.length;
    return at;
  }

  /** A vector of structs of two int64 each (FieldNode, Buffer): pairs[0], pairs[1] the first, and so on. */
  pairs(values: readonly number[]): number {
    this.pad(8, 4);
    const at = this.at;
    this.room(4 + 8 * values.length);
    this.view.setUint32(at, values.length / 2, true);
    for (let i = 0; i < values.length; i++) this.view.setBigInt64(at + 4 + 8 * i, BigInt(values[i]), true);
    this.at = at + 4 + 8 * values.length;
    return at;
  }

  tables(items: readonly (readonly Slot[])[]): number {
    this.pad(4);
    const at = this.at;
    this.room(4 + 4 * items.length);
    this.view.setUint32(at, items.length, true);
    this.at = at + 4 + 4 * items.length;
    items.forEach((fields, i) => {
      const field = at + 4 + 4 * i;
      const table = this.table(fields);
      this.view.setUint32(field, table - field, true);
    });
    return at;
  }

  /** Zeros up to the next position p with (p + ahead) a multiple of `align`. */
  pad(align: number, ahead = 0): void {
    const to = this.at + ((align - ((this.at + ahead) % align)) % align);
    this.room(to - this.at);
    this.bytes.fill(0, this.at, to);
    this.at = to;
  }

  private room(extra: number): void {
    if (this.at + extra <= this.bytes.length) return;
    const grown = new Uint8Array(Math.max(2 * this.bytes.length, this.at + extra));
    grown.set(this.bytes.subarray(0, this.at));
    this.bytes = grown;
    this.view = new DataView(grown.buffer);
  }
}

/** A Field table of Schema.fbs: not nullable, as every Tracemill column. */
function field(name: string, type: Column["type"] | "element"): Slot[] {
  const [typeId, typeTable, children]: [number, Slot[], Slot[][]] =
    type === "int" || type === "element"
      ? [
          TYPE_INT,
          [
            { slot: 0, size: 4, value: 64 },
            { slot: 1, size: 1, value: 1 },
          ],
          [],
        ]
      : type === "real"
        ? [TYPE_FLOAT, [{ slot: 0, size: 2, value: DOUBLE }], []]
        : type === "time"
          ? [
              TYPE_TIMESTAMP,
              [
                { slot: 0, size: 2, value: NANOSECOND },
                { slot: 1, size: 4, child: (out) => out.string("UTC") },
              ],
              [],
            ]
          : type === "string"
            ? [TYPE_UTF8, [], []]
            : [TYPE_LIST, [], [field("element", "element")]];
  return [
    { slot: 0, size: 4, child: (out) => out.string(name) },
    { slot: 1, size: 1, value: 0 },
    { slot: 2, size: 1, value: typeId },
    { slot: 3, size: 4, child: (out) => out.table(typeTable) },
    { slot: 5, size: 4, child: (out) => out.tables(children) },
  ];
}

/**
 * Encodes batches of the columns `schema` declares (RowCells' batches) as a whole IPC stream each: the schema, the
 * record batch, the end marker. The bytes returned are valid until the next `encode`.
 */
export class ArrowIpcWriter {
  private readonly schema: Uint8Array;
  private readonly metadata = new FlatWriter();
  private out = new Uint8Array(1 << 20);
  /** Per record batch, reused: field nodes and buffers as (offset, length) pairs. */
  private readonly nodes: number[] = [];
  private readonly buffers: number[] = [];

  constructor(columns: readonly Column[]) {
    const schema = new FlatWriter().root([
      { slot: 0, size: 2, value: V5 },
      { slot: 1, size: 1, value: SCHEMA },
      {
        slot: 2,
        size: 4,
        child: (out) =>
          out.table([
            { slot: 0, size: 2, value: 0 },
            { slot: 1, size: 4, child: (w) => w.tables(columns.map((column) => field(column.name, column.type))) },
          ]),
      },
      { slot: 3, size: 8, value: 0 },
    ]);
    this.schema = new Uint8Array(8 + schema.length);
    header(this.schema, 0, schema.length);
    this.schema.set(schema, 8);
  }

  encode(batch: readonly ColumnValues[], rows: number): Uint8Array {
    const nodes = this.nodes;
    const buffers = this.buffers;
    nodes.length = 0;
    buffers.length = 0;
    let body = 0;
    const region = (length: number) => {
      buffers.push(body, length);
      body += (length + 7) & ~7;
    };
    for (const column of batch) {
      nodes.push(rows, 0);
      region(0);
      if (column.type === "string") {
        region(4 * (rows + 1));
        region(column.offsets[rows]);
      } else if (column.type === "list") {
        region(4 * (rows + 1));
        nodes.push(column.offsets[rows], 0);
        region(0);
        region(8 * column.offsets[rows]);
      } else region(8 * rows);
    }
    const metadata = this.metadata.root([
      { slot: 0, size: 2, value: V5 },
      { slot: 1, size: 1, value: RECORD_BATCH },
      {
        slot: 2,
        size: 4,
        child: (out) =>
          out.table([
            { slot: 0, size: 8, value: rows },
            { slot: 1, size: 4, child: (w) => w.pairs(nodes) },
            { slot: 2, size: 4, child: (w) => w.pairs(buffers) },
          ]),
      },
      { slot: 3, size: 8, value: body },
    ]);
    const length = this.schema.length + 8 + metadata.length + body + 8;
    if (this.out.length < length) this.out = new Uint8Array(Math.max(length, 2 * this.out.length));
    const out = this.out;
    out.set(this.schema, 0);
    let at = this.schema.length;
    at = header(out, at, metadata.length);
    out.set(metadata, at);
    at += metadata.length;
    const start = at;
    let next = 0;
    // The buffers in the order of `buffers`: each column's validity (none), offsets, values; zeros between them.
    const put = (bytes: Uint8Array) => {
      const offset = start + buffers[2 * next];
      out.fill(0, at, offset);
      out.set(bytes, offset);
      at = offset + bytes.length;
      next++;
    };
    const view = (array: ArrayBufferView, bytes: number) => new Uint8Array(array.buffer, array.byteOffset, bytes);
    for (const column of batch) {
      next++;
      if (column.type === "string") {
        put(view(column.offsets, 4 * (rows + 1)));
        put(column.bytes.subarray(0, column.offsets[rows]));
      } else if (column.type === "list") {
        put(view(column.offsets, 4 * (rows + 1)));
        next++;
        put(view(column.values, 8 * column.offsets[rows]));
      } else put(view(column.values, 8 * rows));
    }
    out.fill(0, at, start + body);
    at = header(out, start + body, 0);
    return out.subarray(0, at);
  }
}

/** A message's 8-byte prefix (continuation marker, metadata length) at `at`; returns the position after it. */
function header(out: Uint8Array, at: number, metadataLength: number): number {
  const view = new DataView(out.buffer, out.byteOffset + at, 8);
  view.setInt32(0, -1, true);
  view.setInt32(4, metadataLength, true);
  return at + 8;
}

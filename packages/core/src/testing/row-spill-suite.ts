// The shared RowSpill suite: the in-memory spill (core) and the temporary file (engine) pass the same checks, alone
// and under OrderedRows, whose output must not change whatever it spills.
import { describe, expect, it } from "vitest";
import { OrderedRows } from "../outputs/ordered-rows.js";
import type { RowSpill } from "../outputs/row-spill.js";

/** A spill to test, and what releases it afterwards. */
export interface SpillUnderTest {
  spill: RowSpill;
  close(): void;
}

/** Row `seq`'s text: lengths from 1 byte to a few KiB, with a long row now and then (over 256 KiB and 1 MiB). */
function rowText(seq: number): string {
  const length = seq % 997 === 500 ? 300_000 + seq : seq % 4999 === 2000 ? 1_200_000 : 1 + ((seq * 7919) % 3000);
  return `${seq}:`.padEnd(length, String.fromCharCode(97 + (seq % 26)));
}

/** Row numbers 0…count−1 in an order where some rows wait long: windows shuffled, every 37th held to the end. */
function disorder(count: number): number[] {
  const order: number[] = [];
  const late: number[] = [];
  let state = 12345;
  for (let from = 0; from < count; from += 500) {
    const window = Array.from({ length: Math.min(500, count - from) }, (_, i) => from + i);
    for (let i = window.length - 1; i > 0; i--) {
      state = (Math.imul(state, 1103515245) + 12345) >>> 0;
      const j = state % (i + 1);
      [window[i], window[j]] = [window[j], window[i]];
    }
    for (const seq of window) (seq % 37 === 3 ? late : order).push(seq);
  }
  return [...order, ...late.reverse()];
}

export function describeRowSpill(name: string, open: () => SpillUnderTest): void {
  describe(`RowSpill: ${name}`, () => {
    it("reads back any range of what was appended, across appends", () => {
      const { spill, close } = open();
      try {
        const source = Uint8Array.from({ length: 5000 }, (_, i) => (i * 31) & 255);
        spill.append(source, 0, 1000);
        spill.append(source, 1000, 1000);
        spill.append(source, 1000, 5000);
        const into = new Uint8Array(4000);
        spill.read(0, into, 4000);
        expect(into).toEqual(source.subarray(0, 4000));
        spill.read(3990, into, 1010);
        expect(into.subarray(0, 1010)).toEqual(source.subarray(3990, 5000));
        expect(() => spill.read(4990, into, 20)).toThrow();
      } finally {
        close();
      }
    });

    it("gives OrderedRows' output unchanged when it spills many times, long rows included", () => {
      const count = 12_000;
      const order = disorder(count);
      const write = (spill: RowSpill | undefined, memoryBytes: number) => {
        const out: string[] = [];
        let spilled = 0;
        const rows = new OrderedRows(
          (bytes, start, end) => out.push(Buffer.from(bytes.subarray(start, end)).toString("latin1")),
          {
            spill,
            memoryBytes,
          },
        );
        const buffer = Buffer.alloc(1_300_000);
        for (const seq of order) {
          const text = rowText(seq);
          buffer.write(text, "latin1");
          rows.put(seq, buffer, text.length);
          expect(rows.bufferedBytes).toBeLessThanOrEqual(memoryBytes);
          spilled = rows.spilledBytes;
        }
        expect(rows.waiting).toBe(0);
        return { text: out.join(""), spilled };
      };
      const plain = write(undefined, Number.POSITIVE_INFINITY);
      expect(plain.text.length).toBe(order.reduce((sum, seq) => sum + rowText(seq).length, 0));
      const { spill, close } = open();
      try {
        const spilled = write(spill, 2 << 20);
        expect(spilled.spilled).toBeGreaterThan(8 << 20);
        expect(spilled.text === plain.text).toBe(true);
      } finally {
        close();
      }
    });
  });
}

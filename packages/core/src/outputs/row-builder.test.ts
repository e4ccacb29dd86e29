// The number and address formats of docs/features.md, including their edge cases.
import { describe, expect, it } from "vitest";
import { RowBuilder } from "./row-builder.js";

function format(write: (row: RowBuilder) => void): string {
  const row = new RowBuilder();
  row.start();
  write(row);
  return String.fromCharCode(...row.bytes.subarray(0, row.length));
}

describe("RowBuilder", () => {
  it("writes integers up to 2^53 and separates fields with commas", () => {
    expect(
      format((r) => {
        for (const n of [0, 7, 10, 2147483647, 2147483648, 2 ** 53 - 1]) r.int(n);
      }),
    ).toBe("0,7,10,2147483647,2147483648,9007199254740991");
  });

  it("writes signed integers and list cells as quoted JSON arrays of them, long lists included", () => {
    expect(
      format((r) => {
        for (const n of [-1, 0, 9, -2147483649, 2 ** 53 - 1, 1700000000123, -5000000000007, 10 ** 10]) r.signed(n);
      }),
    ).toBe("-1,0,9,-2147483649,9007199254740991,1700000000123,-5000000000007,10000000000");
    expect(
      format((r) => {
        r.int(6);
        r.list(Int32Array.of(74, -1, 0, 1500), 4);
        r.list(Int32Array.of(5), 0);
        r.int(7);
      }),
    ).toBe('6,"[74,-1,0,1500]","[]",7');
    const long = Array.from({ length: 600 }, (_, i) => (i % 2 === 0 ? -1 : 2147483647 - i));
    expect(format((r) => r.list(long, long.length))).toBe(`"[${long.join(",")}]"`);
  });

  it("writes runs of zero columns as that many int(0) calls would, first in the row or not", () => {
    for (const count of [1, 2, 5, 40]) {
      expect(format((r) => r.zeros(count))).toBe(Array(count).fill("0").join(","));
      expect(
        format((r) => {
          r.int(12);
          r.zeros(count);
          r.int(3);
        }),
      ).toBe(["12", ...Array(count).fill("0"), "3"].join(","));
    }
  });

  it("writes an IPv4 address from its word as from its bytes, and integer runs as single integers", () => {
    const words = [0, 1, 0x7f000001, 0xc0a800ff, 0x0a090063, 0x64646464, 0xffffffff | 0, 0x80000000 | 0];
    for (let i = 0; i < 500; i++) words.push((Math.random() * 2 ** 32) | 0);
    for (const word of words) {
      const bytes = new Uint8Array([word >>> 24, (word >>> 16) & 255, (word >>> 8) & 255, word & 255]);
      expect(format((r) => r.ipv4(word))).toBe(format((r) => r.address(bytes, 4)));
    }
    const values = new Float64Array([5, 0, 9, 10, 99, 100, 123456, 2 ** 31, 2 ** 53 - 1]);
    expect(format((r) => r.ints(values, 1, 8))).toBe("0,9,10,99,100,123456,2147483648,9007199254740991");
    expect(format((r) => r.ints(values, 0, 0))).toBe("");
  });

  it("writes nanosecond durations as seconds with up to 9 decimals, rounding non-integers half up", () => {
    const values = [0, 1, 999_999_999, 1e9, 1_500_000_000, 123_456_789_012, 2.5, 0.49, 86_400e9 * 365 * 100];
    expect(
      format((r) => {
        for (const n of values) r.seconds(n);
      }),
    ).toBe("0,0.000000001,0.999999999,1,1.5,123.456789012,0.000000003,0,3153600000");
  });

  it("writes every digit count and fraction width like an exact BigInt reference", () => {
    const ints: number[] = [];
    for (let p = 1; p < 2 ** 53; p *= 10) ints.push(p - 1, p, p + 1, 3 * p + 7);
    // The int32 fast paths end at 2^31 − 1 (ns, or reals × 10^6).
    ints.push(2 ** 31 - 2, 2 ** 31 - 1, 2 ** 31, 2 ** 31 + 1, 2147 * 997, 2148 * 997);
    for (let i = 0; i < 2000; i++) ints.push(Math.floor(Math.random() * 2 ** (1 + (i % 53))));
    expect(
      format((r) => {
        for (const n of ints) r.int(n);
      }),
    ).toBe(ints.map((n) => BigInt(n).toString()).join(","));
    const exact = (scaled: number, digits: number) => {
      const whole = BigInt(scaled) / 10n ** BigInt(digits);
      const part = (BigInt(scaled) % 10n ** BigInt(digits)).toString().padStart(digits, "0").replace(/0+$/, "");
      return part === "" ? `${whole}` : `${whole}.${part}`;
    };
    const ns = ints.filter((n) => n < 2 ** 53).map((n) => n + (n % 3) / 4);
    expect(
      format((r) => {
        for (const n of ns) r.seconds(n);
      }),
    ).toBe(ns.map((n) => exact(Math.round(n), 9)).join(","));
    const reals = ints.filter((n) => n < 2 ** 40).map((n) => n / 997);
    expect(
      format((r) => {
        for (const n of reals) r.decimal(n);
      }),
    ).toBe(reals.map((n) => (n > 0 ? exact(Math.round(n * 1e6), 6) : "0")).join(","));
  });

  it("writes nanoseconds that are whole microseconds (or not) like the BigInt reference, in gaps and epochs", () => {
    // Whole microseconds take a shorter path: every count of trailing zeros, on both sides of it.
    const parts = [1, 999, 1000, 1001, 10_000, 999_000, 999_999_000, 123_000_000, 100_000_000, 500_000, 7_000];
    for (let i = 0; i < 700; i++) {
      const us = Math.floor(Math.random() * 1e6) * 1000;
      parts.push(us, us + 1 + Math.floor(Math.random() * 999), Math.floor(us / 10 ** (i % 7)) * 10 ** (i % 7));
    }
    const fraction = (ns: number) => ns.toString().padStart(9, "0").replace(/0+$/, "");
    const exact = (sec: bigint, ns: number) => (ns === 0 ? `${sec}` : `${sec}.${fraction(ns)}`);
    const gaps = parts.flatMap((ns) => [ns, 3e9 + ns]);
    expect(
      format((r) => {
        for (const ns of gaps) r.seconds(ns);
      }),
    ).toBe(gaps.map((ns) => exact(BigInt(ns) / 1_000_000_000n, ns % 1e9)).join(","));
    expect(
      format((r) => {
        for (const ns of parts) r.epoch(1_700_000_123, ns % 1e9);
      }),
    ).toBe(parts.map((ns) => exact(1_700_000_123n, ns % 1e9)).join(","));
    expect(format((r) => r.epoch(-3, 999_999_000))).toBe("-2.000001");
    expect(format((r) => r.epoch(-3, 1000))).toBe("-2.999999");
  });

  it("writes whole-microsecond fractions after whole parts of any size, like the BigInt reference", () => {
    const fraction = (ns: bigint) => (ns === 0n ? "" : `.${ns.toString().padStart(9, "0").replace(/0+$/, "")}`);
    const exact = (ns: bigint) => `${ns / 1_000_000_000n}${fraction(ns % 1_000_000_000n)}`;
    const limit = BigInt(2 ** 53 - 1);
    const durations = [
      2n ** 31n,
      2n ** 32n + 999_999_000n,
      limit - (limit % 1000n),
      limit - (limit % 1000n) - 1000n,
      limit,
    ];
    for (const ns of durations) expect(format((r) => r.seconds(Number(ns)))).toBe(exact(ns));
    for (const sec of [0, 2 ** 31 - 1, 2 ** 31, 2 ** 32 - 1, 2 ** 40]) {
      for (const nsec of [0, 1000, 10_000, 999_999_000, 120_000_000]) {
        expect(format((r) => r.epoch(sec, nsec))).toBe(exact(BigInt(sec) * 1_000_000_000n + BigInt(nsec)));
        expect(format((r) => r.epoch(-sec - 1, nsec))).toBe(
          nsec === 0 ? `-${sec + 1}` : `-${exact(BigInt(sec) * 1_000_000_000n + BigInt(1e9 - nsec))}`,
        );
      }
    }
  });

  it("writes epoch times of any sign without exponent", () => {
    expect(format((r) => r.epoch(1_700_000_000, 5))).toBe("1700000000.000000005");
    expect(format((r) => r.epoch(0, 0))).toBe("0");
    expect(format((r) => r.epoch(-1, 500_000_000))).toBe("-0.5");
    expect(format((r) => r.epoch(-2, 0))).toBe("-2");
    expect(format((r) => r.epoch(-3, 999_999_999))).toBe("-2.000000001");
  });

  it("fails on a NaN or infinite integer, duration or epoch instead of looping forever", () => {
    for (const value of [Number.NaN, Infinity]) {
      expect(() => format((r) => r.int(value))).toThrow(/must be finite/);
      expect(() => format((r) => r.seconds(value))).toThrow(/must be finite/);
      expect(() => format((r) => r.epoch(value, 0))).toThrow(/must be finite/);
    }
  });

  it("writes reals with 6 decimals, trailing zeros dropped, never as NaN, Infinity or an exponent", () => {
    const values = [0, 1, 0.5, 1 / 3, 2 / 3, 1e-7, 5e-7, 123456.0000004, 1e15 / 3, 1e25, Number.NaN, Infinity, -1];
    expect(
      format((r) => {
        for (const n of values) r.decimal(n);
      }),
    ).toBe("0,1,0.5,0.333333,0.666667,0,0.000001,123456,333333333333333,10000000000000000905969664,0,0,0");
  });

  it("writes IPv4 dotted and IPv6 in RFC 5952 text", () => {
    const v6 = (text: string) => {
      const bytes = new Uint8Array(16);
      const hex = text.replace(/:/g, "");
      for (let i = 0; i < 16; i++) bytes[i] = Number.parseInt(hex.slice(2 * i, 2 * i + 2), 16);
      return format((r) => r.address(bytes, 6));
    };
    expect(format((r) => r.address(new Uint8Array([192, 168, 0, 255]), 4))).toBe("192.168.0.255");
    expect(v6("2001:0db8:0000:0000:0000:0000:0000:0001")).toBe("2001:db8::1");
    expect(v6("2001:0db8:0000:0000:0001:0000:0000:0002")).toBe("2001:db8::1:0:0:2");
    expect(v6("2001:0db8:0000:0001:0000:0000:0000:0002")).toBe("2001:db8:0:1::2");
    expect(v6("2001:0db8:0000:0001:0001:0001:0001:0001")).toBe("2001:db8:0:1:1:1:1:1");
    expect(v6("0000:0000:0000:0000:0000:0000:0000:0000")).toBe("::");
    expect(v6("0000:0000:0000:0000:0000:0000:0000:0001")).toBe("::1");
    expect(v6("fe80:0000:0000:0000:0000:0000:0000:0000")).toBe("fe80::");
    expect(v6("0000:0000:0000:0000:0000:ffff:c000:0201")).toBe("::ffff:192.0.2.1");
    expect(v6("abcd:ef01:2345:6789:abcd:ef01:2345:6789")).toBe("abcd:ef01:2345:6789:abcd:ef01:2345:6789");
  });

  it("writes every octet in every position like String(), with the next field right after the address", () => {
    const mapped = new Uint8Array(16);
    mapped[10] = 0xff;
    mapped[11] = 0xff;
    for (let b = 0; b < 256; b++) {
      const octets = [b, (b * 7) & 255, 255 - b, (b * 13 + 5) & 255];
      for (let turn = 0; turn < 4; turn++) {
        const [o1, o2, o3, o4] = [0, 1, 2, 3].map((i) => octets[(i + turn) & 3]);
        const dotted = `${o1}.${o2}.${o3}.${o4}`;
        const word = (o1 << 24) | (o2 << 16) | (o3 << 8) | o4 | 0;
        const bytes = new Uint8Array([o1, o2, o3, o4]);
        mapped.set(bytes, 12);
        // A one-digit field after the address lands where the scratch bytes of a shorter last octet were stored.
        expect(
          format((r) => {
            r.ipv4(word);
            r.int(7);
            r.address(bytes, 4);
            r.int(8);
            r.address(mapped, 6);
            r.int(9);
          }),
        ).toBe(`${dotted},7,${dotted},8,::ffff:${dotted},9`);
      }
    }
  });

  it("quotes text per RFC 4180 and encodes it as UTF-8", () => {
    const text = format((r) => {
      r.text('a,"b"');
      r.text("é");
    });
    expect(text).toBe('"a,""b""",\u00c3\u00a9');
  });
});

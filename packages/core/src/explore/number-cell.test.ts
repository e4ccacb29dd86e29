// Numbers read from a CSV cell's bytes exactly as Number() reads its text.
import { describe, expect, it } from "vitest";
import { encodeUtf8 } from "../capture/utf8.js";
import { parseNumberCell } from "./number-cell.js";

describe("parseNumberCell", () => {
  const read = (text: string) => {
    const bytes = encodeUtf8(`#${text}#`);
    return parseNumberCell(bytes, 1, bytes.length - 1);
  };

  it("reads what Number() reads from decimals, exponents and long fractions", () => {
    let seed = 3;
    const random = () => {
      seed = (seed * 69_069 + 1) % 4_294_967_296;
      return seed / 4_294_967_296;
    };
    const spellings = ["0", "-0", "+7", "12", ".5", "5.", "-3.25", "1e3", "2.5E-7", "1700000000.123456789", "0.1"];
    for (let i = 0; i < 2000; i++) {
      const digits = Math.floor(random() * 20);
      spellings.push(((random() - 0.5) * 10 ** (random() * 12)).toFixed(digits));
    }
    for (const text of spellings) expect(Object.is(read(text), Number(text)), text).toBe(true);
  });

  it("reads anything else as no number", () => {
    for (const text of [
      "",
      "-",
      ".",
      "abc",
      "1.2.3",
      "10.0.0.1",
      " 1",
      "1 ",
      "0x1f",
      "NaN",
      "Infinity",
      "1e",
      "1e+",
      "1e999",
      "1,5",
      "[1]",
    ]) {
      expect(read(text), text).toBeNaN();
    }
  });
});

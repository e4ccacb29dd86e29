import { describe, expect, it } from "vitest";
import { givenHash } from "./given-hashes.js";

describe("givenHash", () => {
  const digest = "0123456789abcdef".repeat(4);

  it("gives the digest for the path given, lower-cased, and nothing for other paths", () => {
    const run = { inputHashes: { "/data/a.pcap": digest.toUpperCase() } };
    expect(givenHash(run, "/data/a.pcap")).toBe(digest);
    expect(givenHash(run, "/data/b.pcap")).toBeUndefined();
    expect(givenHash({}, "/data/a.pcap")).toBeUndefined();
  });

  it("reads only the caller's own entries, never inherited ones", () => {
    expect(givenHash({ inputHashes: {} }, "constructor")).toBeUndefined();
    expect(givenHash({ inputHashes: {} }, "toString")).toBeUndefined();
  });

  it.each([digest.slice(1), `${digest}0`, `${digest.slice(1)}g`, ""])("refuses %j, naming the file", (given) => {
    expect(() => givenHash({ inputHashes: { "a.pcap": given } }, "a.pcap")).toThrow(
      expect.objectContaining({ code: "BAD_OPTION", context: { file: "a.pcap" } }),
    );
  });
});

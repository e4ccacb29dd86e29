// The browser's SHA-256 of a picked file, against WebCrypto's one-shot digest of the same bytes: over a stream of many
// chunks, for an empty file, with the fractions read reported in order up to 1; each file read once, unless it failed.
import { afterEach, describe, expect, it, vi } from "vitest";
import { sha256OfFile, WHOLE_FILE_BYTES } from "./file-digest.js";

async function oneShotSha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

afterEach(() => vi.restoreAllMocks());

describe("sha256OfFile", () => {
  // Held whole for WebCrypto up to WHOLE_FILE_BYTES, streamed through noble beyond: both ways, with a limit of 0 for
  // the second, as a file too big to hold would go.
  it.each([
    ["held whole", WHOLE_FILE_BYTES],
    ["streamed", 0],
  ])("hashes a file of many chunks %s as a one-shot digest does, reporting its progress", async (_, wholeUpTo) => {
    // Chunks of 1 MiB here (test-setup's stream), progress every 4 MiB: a file of several of each, and a part.
    const bytes = new Uint8Array(2 * 8 * 1024 * 1024 + 12_345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >>> 13)) & 255;
    const expected = await oneShotSha256(bytes.slice());
    const digest = vi.spyOn(crypto.subtle, "digest");
    const seen: number[] = [];
    expect(await sha256OfFile(new File([bytes], "big.pcap"), (f) => seen.push(f), wholeUpTo)).toBe(expected);
    expect(digest).toHaveBeenCalledTimes(wholeUpTo > 0 ? 1 : 0);
    // Streamed, the fraction grows as it is read; held whole, it is one read.
    expect(seen.length).toBeGreaterThanOrEqual(wholeUpTo > 0 ? 2 : 3);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
    expect(seen.at(-1)).toBe(1);
  });

  it("hashes an empty file and a small one (FIPS 180-2's example)", async () => {
    expect(await sha256OfFile(new File([], "empty.pcap"))).toBe(
      "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
    );
    const small = new TextEncoder().encode("abc");
    expect(await sha256OfFile(new File([small], "abc"))).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("reads a file once for every caller, the picker's and the submit's; a file that failed is read again", async () => {
    const file = new File([new TextEncoder().encode("abc")], "a.pcap");
    const read = vi.spyOn(file, "arrayBuffer");
    const early = sha256OfFile(file);
    const seen: number[] = [];
    const late = sha256OfFile(file, (f) => seen.push(f));
    expect(await late).toBe(await early);
    expect(await sha256OfFile(file, (f) => seen.push(f))).toBe(await early);
    expect(read).toHaveBeenCalledTimes(1);
    expect(seen.at(-1)).toBe(1);

    const flaky = new File([new TextEncoder().encode("abc")], "b.pcap");
    vi.spyOn(flaky, "arrayBuffer").mockRejectedValueOnce(new Error("The file could not be read"));
    await expect(sha256OfFile(flaky)).rejects.toThrow("The file could not be read");
    expect(await sha256OfFile(flaky)).toBe(await early);

    // Streamed, the same: a stream that fails is opened again.
    const streamed = new File([new TextEncoder().encode("abc")], "c.pcap");
    const stream = vi.spyOn(streamed, "stream").mockImplementationOnce(
      () =>
        new ReadableStream({
          pull: (controller) => controller.error(new Error("The file could not be read")),
        }),
    );
    await expect(sha256OfFile(streamed, undefined, 0)).rejects.toThrow("The file could not be read");
    expect(await sha256OfFile(streamed, undefined, 0)).toBe(await early);
    expect(stream).toHaveBeenCalledTimes(2);
  });
});

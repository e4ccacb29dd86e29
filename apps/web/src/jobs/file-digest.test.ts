// The browser's SHA-256 of a picked file, against WebCrypto's one-shot digest of the same bytes: over a stream of many
// chunks, for an empty file, with the fractions read reported in order up to 1; each file read once, unless it failed.
import { describe, expect, it, vi } from "vitest";
import { sha256OfFile } from "./file-digest.js";

async function oneShotSha256(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

describe("sha256OfFile", () => {
  it("hashes a file of many chunks as a one-shot digest does, reporting its progress", async () => {
    // Chunks of 1 MiB here (test-setup's stream), progress every 4 MiB: a file of several of each, and a part.
    const bytes = new Uint8Array(2 * 8 * 1024 * 1024 + 12_345);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31 + (i >>> 13)) & 255;
    const seen: number[] = [];
    expect(await sha256OfFile(new File([bytes], "big.pcap"), (f) => seen.push(f))).toBe(await oneShotSha256(bytes));
    expect(seen.length).toBeGreaterThanOrEqual(3);
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
    const stream = vi.spyOn(file, "stream");
    const early = sha256OfFile(file);
    const seen: number[] = [];
    const late = sha256OfFile(file, (f) => seen.push(f));
    expect(await late).toBe(await early);
    expect(await sha256OfFile(file, (f) => seen.push(f))).toBe(await early);
    expect(stream).toHaveBeenCalledTimes(1);
    expect(seen.at(-1)).toBe(1);

    const flaky = new File([new TextEncoder().encode("abc")], "b.pcap");
    vi.spyOn(flaky, "stream").mockImplementationOnce(
      () =>
        new ReadableStream({
          pull: (controller) => controller.error(new Error("The file could not be read")),
        }),
    );
    await expect(sha256OfFile(flaky)).rejects.toThrow("The file could not be read");
    expect(await sha256OfFile(flaky)).toBe(await early);
  });
});

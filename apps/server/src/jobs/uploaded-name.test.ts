// Input names in a job's work directory: uploaded names kept where possible, never a path or an invalid file name.
import { describe, expect, it } from "vitest";
import { uploadedName } from "./uploaded-name.js";

describe("uploadedName", () => {
  it("keeps a plain name, and drops .gz once the file is inflated", () => {
    expect(uploadedName("day 1.pcap", false)).toBe("day 1.pcap");
    expect(uploadedName("day1.pcap.GZ", true)).toBe("day1.pcap");
    expect(uploadedName("day1.pcap.gz", false)).toBe("day1.pcap.gz");
  });

  it("never yields a directory part or a name that is no file", () => {
    expect(uploadedName("../../etc/passwd", false)).toBe("passwd");
    expect(uploadedName("C:\\captures\\a.pcap", false)).toBe("a.pcap");
    expect(uploadedName("..", false)).toBeUndefined();
    expect(uploadedName("", false)).toBeUndefined();
    expect(uploadedName(undefined, false)).toBeUndefined();
    expect(uploadedName(".gz", true)).toBeUndefined();
  });

  it("removes control characters, a NUL included", () => {
    expect(uploadedName("a\u0000b\nc.pcap", false)).toBe("abc.pcap");
    expect(uploadedName("\u0000", false)).toBeUndefined();
  });

  it("cuts long names to 255 UTF-8 bytes on a character boundary, keeping the extension", () => {
    const long = `${"é".repeat(200)}.pcapng`;
    const cut = uploadedName(long, false) ?? "";
    expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(255);
    expect(Buffer.byteLength(cut)).toBeGreaterThan(250);
    expect(cut.endsWith("é.pcapng")).toBe(true);
    expect(uploadedName(`${"a".repeat(300)}.pcap`, false)).toBe(`${"a".repeat(250)}.pcap`);
  });
});

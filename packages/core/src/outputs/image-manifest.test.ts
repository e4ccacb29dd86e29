// The manifest maps CSV rows to images and pixel rows.
import { describe, expect, it } from "vitest";
import { imageEntryName, imageManifestHeader, imageManifestLine } from "./image-manifest.js";

/** The lines of `rows` ([csvRow, flowsPerImage, labels?]) written one after the other, as text. */
function lines(rows: [number, number, string?][]): string {
  const out = { bytes: new Uint8Array(4096), length: 0 };
  for (const [csvRow, n, labels] of rows) {
    imageManifestLine(out, csvRow, n, labels === undefined ? undefined : new TextEncoder().encode(labels));
  }
  return new TextDecoder().decode(out.bytes.subarray(0, out.length));
}

describe("image manifest", () => {
  it("numbers images from 1 with six digits and places row k at pixel row (k−1) mod n", () => {
    expect(imageEntryName(0)).toBe("images/image-000001.png");
    expect(imageEntryName(122)).toBe("images/image-000123.png");
    expect(lines([[1, 3]])).toBe("images/image-000001.png,0,1\n");
    expect(lines([[3, 3]])).toBe("images/image-000001.png,2,3\n");
    expect(lines([[4, 3]])).toBe("images/image-000002.png,0,4\n");
    expect(lines([[7, 1]])).toBe("images/image-000007.png,0,7\n");
    expect(
      lines([
        [1_234_567, 1000],
        [1_234_568, 1000],
        [1_235_001, 1000],
      ]),
    ).toBe(
      "images/image-001235.png,566,1234567\n" +
        "images/image-001235.png,567,1234568\n" +
        "images/image-001236.png,0,1235001\n",
    );
  });

  it("adds the label columns when labelled", () => {
    expect(imageManifestHeader()).toBe("image,row,csv_row\n");
    expect(imageManifestHeader(["label", "class_id", "class"])).toBe("image,row,csv_row,label,class_id,class\n");
    expect(lines([[2, 2, "1,3,attempted-admin"]])).toBe("images/image-000001.png,1,2,1,3,attempted-admin\n");
    expect(lines([[10, 4, '1,7,"a, b é"']])).toBe('images/image-000003.png,1,10,1,7,"a, b é"\n');
  });
});

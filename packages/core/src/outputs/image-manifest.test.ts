// The manifest maps CSV rows to images and pixel rows.
import { describe, expect, it } from "vitest";
import { imageEntryName, imageManifestHeader, imageManifestLine } from "./image-manifest.js";

describe("image manifest", () => {
  it("numbers images from 1 with six digits and places row k at pixel row (k−1) mod n", () => {
    expect(imageEntryName(0)).toBe("images/image-000001.png");
    expect(imageEntryName(122)).toBe("images/image-000123.png");
    expect(imageManifestLine(1, 3)).toBe("images/image-000001.png,0,1\n");
    expect(imageManifestLine(3, 3)).toBe("images/image-000001.png,2,3\n");
    expect(imageManifestLine(4, 3)).toBe("images/image-000002.png,0,4\n");
    expect(imageManifestLine(7, 1)).toBe("images/image-000007.png,0,7\n");
  });

  it("adds the label columns when labelled", () => {
    expect(imageManifestHeader()).toBe("image,row,csv_row\n");
    expect(imageManifestHeader(["label", "class_id", "class"])).toBe("image,row,csv_row,label,class_id,class\n");
    expect(imageManifestLine(2, 2, "1,3,attempted-admin")).toBe("images/image-000001.png,1,2,1,3,attempted-admin\n");
  });
});

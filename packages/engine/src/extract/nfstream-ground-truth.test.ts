// The nfstream set through the whole extraction, against NFStream's own ground truth on its test captures
// (test/fixtures/features/nfstream): with --length frame (NFStream's default sizes), every row's
// bidirectional_packets and bidirectional_bytes is one of NFStream's flows, and its parts add up.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { extractFeatures } from "./extract-features.js";

const nfstream = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  "../../../../test/fixtures/features/nfstream",
);
/** NFStream's names for captures stored once, in the captures library (as in pass/cross-check.test.ts). */
const inLibrary: Record<string, string> = {
  "KakaoTalk_chat.pcap": "sll_kakaotalk-chat.pcap",
  "dhcp_big_endian.pcapng": "pcapng-be_dhcp.pcapng",
  "dhcp_little_endian.pcapng": "pcapng-le_dhcp.pcapng",
};

describe("the nfstream set against NFStream's ground truth", () => {
  for (const file of fs.readdirSync(path.join(nfstream, "results")).sort()) {
    const name = file.replace(/\.csv$/, "");
    it(`gives NFStream's flows' packets and bytes on ${name}`, async () => {
      const expected = new Map<string, number>();
      const results = fs
        .readFileSync(path.join(nfstream, "results", file), "utf8")
        .trimEnd()
        .split("\n")
        .slice(1);
      for (const line of results) {
        const [, packets, bytes] = line.split(",");
        expected.set(`${packets}/${bytes}`, (expected.get(`${packets}/${bytes}`) ?? 0) + 1);
      }
      const capture = name in inLibrary ? fixturePath(inLibrary[name]) : path.join(nfstream, "pcaps", name);
      const outDir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-nfstream-"));
      await extractFeatures(capture, { outDir, features: ["nfstream"], length: "frame", splt: 4 });
      const [header, ...rows] = fs.readFileSync(path.join(outDir, "features.csv"), "utf8").trimEnd().split("\n");
      const names = header.split(",");
      const at = (row: string[], column: string) => Number(row[names.indexOf(column)]);
      for (const line of rows) {
        const row = line.match(/"[^"]*"|[^,]+/g) ?? [];
        const key = `${at(row, "bidirectional_packets")}/${at(row, "bidirectional_bytes")}`;
        expect(expected.get(key) ?? 0, key).toBeGreaterThan(0);
        expected.set(key, expected.get(key)! - 1);
        expect(at(row, "src2dst_packets") + at(row, "dst2src_packets")).toBe(at(row, "bidirectional_packets"));
        expect(at(row, "src2dst_bytes") + at(row, "dst2src_bytes")).toBe(at(row, "bidirectional_bytes"));
      }
      // NFStream also has flows of other protocols (ICMP): at most those are left over.
      expect([...expected.values()].reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(1);
      expect(rows.length).toBeGreaterThan(0);
    });
  }
});

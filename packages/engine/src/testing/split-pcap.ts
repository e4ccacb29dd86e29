// Test helper: a little-endian pcap file cut into two parts at a record boundary, each part with the file header, as
// a capture split by tcpdump -C is.
import fs from "node:fs";

/** `file`'s bytes as two pcap files, the second starting at record `at` (0-based). */
export function splitPcap(file: string, at: number): [Buffer, Buffer] {
  const bytes = fs.readFileSync(file);
  let offset = 24;
  for (let record = 0; record < at; record++) offset += 16 + bytes.readUInt32LE(offset + 8);
  return [bytes.subarray(0, offset), Buffer.concat([bytes.subarray(0, 24), bytes.subarray(offset)])];
}

// Test helpers for the sanitize tests: read a capture's packets, check an exact split, run Suricata independently.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { runSuricataOnCapture } from "../suricata/suricata-run.js";
import { forEachPacket } from "./packet-stream.js";

export interface PacketCopy {
  tsSec: number;
  tsNsec: number;
  capturedLength: number;
  originalLength: number;
  linkType: number;
  data: Buffer;
}

export async function readPackets(file: string): Promise<PacketCopy[]> {
  const packets: PacketCopy[] = [];
  await forEachPacket(file, {}, (p) => {
    packets.push({
      tsSec: p.tsSec,
      tsNsec: p.tsNsec,
      capturedLength: p.capturedLength,
      originalLength: p.originalLength,
      linkType: p.linkType,
      data: Buffer.from(p.data),
    });
    return undefined;
  });
  return packets;
}

/**
 * Walks the input once: each packet must be the next one of `clean` or of `attacks`, and both must be used up.
 * Returns a description of the first difference, or "" when the split is exact.
 */
export function splitDifference(input: PacketCopy[], clean: PacketCopy[], attacks: PacketCopy[]): string {
  let c = 0;
  let a = 0;
  for (let i = 0; i < input.length; i++) {
    if (c < clean.length && same(input[i], clean[c])) c++;
    else if (a < attacks.length && same(input[i], attacks[a])) a++;
    else return `input packet ${i} is neither clean packet ${c} nor attack packet ${a}`;
  }
  if (c !== clean.length || a !== attacks.length)
    return `extra packets: clean ${clean.length - c}, attacks ${attacks.length - a}`;
  return "";
}

function same(x: PacketCopy, y: PacketCopy): boolean {
  return (
    x.tsSec === y.tsSec &&
    x.tsNsec === y.tsNsec &&
    x.capturedLength === y.capturedLength &&
    x.originalLength === y.originalLength &&
    x.linkType === y.linkType &&
    x.data.equals(y.data)
  );
}

/** Alerts Suricata raises on `capture` with `ruleFiles`, run apart from sanitize (its own directory, then removed). */
export async function countAlerts(capture: string, ruleFiles: string[], classificationFile: string): Promise<number> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-check-"));
  try {
    const run = await runSuricataOnCapture(
      capture,
      { ruleFiles, classificationFile, homeNet: "any", externalNet: "any", runmode: "single" },
      dir,
    );
    return fs
      .readFileSync(run.eveFile, "utf8")
      .split("\n")
      .filter((l) => l.includes('"event_type":"alert"')).length;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

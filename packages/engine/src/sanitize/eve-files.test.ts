// EVE flow records read from bytes: sessions counted, wanted flows as intervals, the same from a line in another
// layout (read as text).
import fs from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import type { AttackFlow } from "./attack-sessions.js";
import { EveFlowReader, type FlowKey } from "./eve-files.js";
import { NO_VLAN, vlanKey } from "./vlan-key.js";

const lines = fs
  .readFileSync(path.resolve(import.meta.dirname, "../../../../test/fixtures/sanitize/eve-flows.json"), "utf8")
  .trim()
  .split("\n");

function readAll(texts: string[], wanted: Set<FlowKey>): { sessions: number; flows: [FlowKey, AttackFlow][] } {
  const reader = new EveFlowReader();
  const flows: [FlowKey, AttackFlow][] = [];
  const bytes = Buffer.from(`${texts.join("\n")}\n`);
  let start = 0;
  for (let nl = bytes.indexOf(10); nl >= 0; nl = bytes.indexOf(10, start)) {
    reader.read(
      bytes,
      start,
      nl,
      (id) => wanted.has(id),
      (id, flow) => flows.push([id, { ...flow, src: flow.src.slice(), dst: flow.dst.slice() }]),
    );
    start = nl + 1;
  }
  return { sessions: reader.sessions, flows };
}

it("counts TCP and UDP flows and gives the wanted ones as intervals", () => {
  const { sessions, flows } = readAll(lines, new Set<FlowKey>([2144043584893026, 1435517245665884, 1]));
  expect(sessions).toBe(2);
  expect(flows).toEqual([
    [
      2144043584893026,
      {
        protocol: 6,
        src: new Uint8Array([192, 168, 2, 7]),
        srcPort: 1041,
        dst: new Uint8Array([208, 75, 250, 50]),
        dstPort: 80,
        vlan: NO_VLAN,
        startUs: 1259086431433663,
        endUs: expect.any(Number),
      },
    ],
    [1435517245665884, expect.objectContaining({ protocol: -1, srcPort: 0, dstPort: 0 })],
  ]);
  expect(flows[0][1].endUs).toBeGreaterThan(flows[0][1].startUs);
  expect(flows[1][1].src).toEqual(new Uint8Array([0xff, 2, ...new Array(13).fill(0), 1]));
});

it("reads a line of another layout the same way", () => {
  // A carriage return after the object is not Suricata's layout: the line is read as text.
  const other = lines.map((l) => `${l}\r`);
  const wanted = new Set<FlowKey>([2144043584893026, 1435517245665884, 1356640002289257]);
  expect(readAll(other, wanted)).toEqual(readAll(lines, wanted));
  expect(readAll(lines, wanted).flows.length).toBe(3);
});

it("keys a flow by its VLAN ids, outer first, either way of reading", () => {
  const id = 2144043584893026;
  const tagged = (vlan: string) => lines[0].replace('"event_type":"flow",', `"event_type":"flow","vlan":${vlan},`);
  const vlans = new Map([
    ["[10]", 10],
    ["[100,10]", 100 + 10 * 4096],
    ["[4095,1,2]", 4095 + 1 * 4096 + 2 * 4096 * 4096],
  ]);
  for (const [text, key] of vlans) {
    expect(tagged(text)).toContain(`"vlan":${text}`);
    const fast = readAll([tagged(text)], new Set([id])).flows;
    const slow = readAll([`${tagged(text)}\r`], new Set([id])).flows;
    expect(fast.map(([, f]) => f.vlan)).toEqual([key]);
    expect(slow).toEqual(fast);
  }
  expect(vlanKey(100, 10, 0)).toBe(vlans.get("[100,10]"));
  // The other tuple members are read as without the tag.
  expect({ ...readAll([tagged("[10]")], new Set([id])).flows[0][1], vlan: NO_VLAN }).toEqual(
    readAll([lines[0]], new Set([id])).flows[0][1],
  );
});

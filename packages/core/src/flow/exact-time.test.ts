// Time rules to the nanosecond far from the capture's first packet: 200 days after it (beyond 2^53 ns, 104 days),
// after a first packet at the epoch (a pcapng block with a zero timestamp). Expected values are hand arithmetic on
// the packets' times; a double of nanoseconds since the first packet would round them by 2 to 256 ns.
import { describe, expect, it } from "vitest";
import { createDecodedPacket, DecodeKind } from "../decode/decoded-packet.js";
import { record, runScenario } from "../testing/feature-scenario.js";
import { FlowTable } from "./flow-table.js";
import type { EndReason } from "./session.js";

/** A packet at the epoch (scenario times count from 1 700 000 000 s), of a session of its own. */
const AT_EPOCH = "-1700000000 192.0.2.1:9 > 192.0.2.2:9 udp - 28 20/8";
/** 200 days after 1 700 000 000 s, in scenario seconds. */
const FAR = 200 * 86_400;

describe("times far from the capture's first packet", () => {
  it("keeps a session's ts, duration and gaps exact", () => {
    const { rows } = runScenario(`
${AT_EPOCH}
${FAR}.900000001 10.0.0.3:40000 > 10.0.0.4:443 tcp S 60 20/40
${FAR}.950000003 10.0.0.4:443 > 10.0.0.3:40000 tcp SA 60 20/40
${FAR + 1}.047503001 10.0.0.3:40000 > 10.0.0.4:443 tcp A 52 20/32`);
    const row = record(rows[1]);
    // 1 700 000 000 + 17 280 000 s; the last packet 1.047503001 − 0.900000001 = 0.147503 s after the first; the
    // gaps 0.050000002 and 0.097502998 s, whose mean is 0.0737515 s.
    expect([row.ts, row.flowduration, row.total_fipt, row.min_fipt, row.max_fipt, row.mean_fipt]).toEqual([
      "1717280000.900000001",
      "0.147503",
      "0.147503",
      "0.147503",
      "0.147503",
      "0.147503",
    ]);
    expect([row.total_bipt, row.mean_flowipt]).toEqual(["0", "0.0737515"]);
    expect(record(rows[0]).ts).toBe("0");
  });

  it("applies the idle timeout to the nanosecond", () => {
    // 120 s exactly after the last packet still belongs to the session; 120.000000002 s does not.
    const { rows, reasons } = runScenario(`
${AT_EPOCH}
${FAR}.000000001 10.0.0.5:5000 > 10.0.0.6:53 udp - 60 20/8
${FAR + 120}.000000001 10.0.0.6:53 > 10.0.0.5:5000 udp - 60 20/8
${FAR + 240}.000000003 10.0.0.5:5000 > 10.0.0.6:53 udp - 60 20/8`);
    expect(rows.map((line) => [record(line).ts, record(line).flowduration])).toEqual([
      ["0", "0"],
      ["1717280000.000000001", "120"],
      ["1717280240.000000003", "0"],
    ]);
    expect(reasons).toEqual<EndReason[]>(["idle", "idle", "end-of-capture"]);
  });

  it("applies the active timeout to the nanosecond", () => {
    // 1800 s exactly after the first packet still belongs to the session; 1800.000000001 s does not.
    const { rows, reasons } = runScenario(
      `
${AT_EPOCH}
${FAR}.5 10.0.0.5:5000 > 10.0.0.6:53 udp - 60 20/8
${FAR + 1800}.5 10.0.0.6:53 > 10.0.0.5:5000 udp - 60 20/8
${FAR + 1800}.500000001 10.0.0.5:5000 > 10.0.0.6:53 udp - 60 20/8`,
      { idleTimeoutNs: 3600e9, activeTimeoutNs: 1800e9 },
    );
    expect(rows.map((line) => record(line).flowduration)).toEqual(["0", "1800", "0"]);
    expect(reasons).toEqual<EndReason[]>(["idle", "active", "end-of-capture"]);
  });

  it("counts a packet 1 ns earlier than the latest as out of order, at the latest time", () => {
    const { rows, outOfOrder } = runScenario(`
${AT_EPOCH}
${FAR}.000000002 10.0.0.5:5000 > 10.0.0.6:53 udp - 60 20/8
${FAR}.000000001 10.0.0.6:53 > 10.0.0.5:5000 udp - 60 20/8`);
    expect(outOfOrder).toBe(1);
    expect([record(rows[1]).ts, record(rows[1]).flowduration, record(rows[1]).total_bpackets]).toEqual([
      "1717280000.000000002",
      "0",
      "1",
    ]);
  });

  it.each([
    ["0.000000001", "end-of-capture"],
    ["0.000000002", "idle"],
  ])("tells idle from end of capture at the capture's last time (%s s past the timeout: %s)", (past, reason) => {
    const { reasons } = runScenario(`
${AT_EPOCH}
${FAR}.000000001 10.0.0.5:5000 > 10.0.0.6:53 udp - 60 20/8
${FAR + 120 + Number(past)} 10.0.0.7:5000 > 10.0.0.8:53 udp - 60 20/8`);
    expect(reasons[1]).toBe(reason);
  });
});

describe("FlowTable.advance", () => {
  function table() {
    const ends: [number, EndReason][] = [];
    const flows = new FlowTable({
      onStart() {},
      onPacket() {},
      onEnd: (session) => ends.push([session.seq, session.endReason]),
    });
    const decoded = createDecodedPacket();
    Object.assign(decoded, { kind: DecodeKind.Udp, protocol: 17, ipVersion: 4, srcPort: 1, dstPort: 2 });
    decoded.src.set([1, 1, 1, 1]);
    decoded.dst.set([2, 2, 2, 2]);
    flows.add(decoded, 0, 0, 28, 0);
    flows.add(decoded, 1_717_280_000, 1, 28, 1);
    return { flows, ends, decoded };
  }

  it("moves the clock without a packet: flush tells idle from end of capture at that time, exactly", () => {
    const exactly = table();
    exactly.flows.advance(1_717_280_120, 1);
    exactly.flows.flush();
    expect(exactly.ends).toEqual([
      [0, "idle"],
      [1, "end-of-capture"],
    ]);
    const later = table();
    later.flows.advance(1_717_280_120, 2);
    later.flows.flush();
    expect(later.ends).toEqual([
      [0, "idle"],
      [1, "idle"],
    ]);
  });

  it("ends the sessions idle by the time it is given, and counts an earlier packet after it as out of order", () => {
    const { flows, ends, decoded } = table();
    flows.advance(1_717_280_300, 0);
    expect(ends).toEqual([
      [0, "idle"],
      [1, "idle"],
    ]);
    flows.add(decoded, 1_717_280_299, 0, 28, 2);
    expect(flows.outOfOrder).toBe(1);
  });
});

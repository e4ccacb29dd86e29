// One-packet sessions' measuring columns are kept by packet and copied: the copies must be what the session's own
// state gives, whatever its time, addresses and ports (the measuring groups' contract), in both directions, for every
// group of every feature set.
import { describe, expect, it } from "vitest";
import { runScenario } from "../testing/feature-scenario.js";
import { FEATURE_SETS } from "./feature-sets.js";
import { OnePacketColumns } from "./one-packet-columns.js";

const bytes = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

describe("OnePacketColumns", () => {
  it("gives back what was kept for the same packet only", () => {
    const cache = new OnePacketColumns();
    expect(cache.lookup(60, 40, 2, 6, true)).toBeUndefined();
    cache.keep(bytes("xx,1,2,3"), 2, 8);
    expect(String.fromCharCode(...(cache.lookup(60, 40, 2, 6, true) ?? []))).toBe(",1,2,3");
    const others: [number, number, number, number, boolean][] = [
      [61, 40, 2, 6, true],
      [60, 41, 2, 6, true],
      [60, 40, 18, 6, true],
      [60, 40, 2, 17, true],
      [60, 40, 2, 6, false],
    ];
    for (const [length, header, flags, protocol, forward] of others) {
      expect(cache.lookup(length, header, flags, protocol, forward)).toBeUndefined();
    }
  });

  it("keeps nothing for a packet beyond the key's range", () => {
    const cache = new OnePacketColumns();
    for (const [length, header, flags] of [
      [2 ** 24, 40, 2],
      [60, 2048, 2],
      [60, 40, 256],
    ]) {
      cache.lookup(length, header, flags, 6, true);
      cache.keep(bytes(",9"), 0, 2);
      expect(cache.lookup(length, header, flags, 6, true)).toBeUndefined();
    }
  });

  it("replaces an entry whose slot another packet takes, never answering for the wrong packet", () => {
    const cache = new OnePacketColumns();
    // Far more packets than entries: every lookup answers with its own packet's text or with nothing.
    for (let length = 0; length < 20_000; length++) {
      cache.lookup(length, 20, 0, 17, true);
      cache.keep(bytes(`,${length}`), 0, `,${length}`.length);
    }
    let kept = 0;
    for (let length = 0; length < 20_000; length++) {
      const text = cache.lookup(length, 20, 0, 17, true);
      if (text === undefined) continue;
      kept++;
      expect(String.fromCharCode(...text)).toBe(`,${length}`);
    }
    expect(kept).toBeGreaterThan(2000);
  });
});

describe("one-packet rows", () => {
  it("are the rows their own state gives, whatever the time, endpoints and direction", () => {
    const packets: string[] = [];
    // The same packets with other windows, and the same header length split otherwise between IP and TCP: groups
    // that read the first packet's detail must not get another packet's text.
    const kinds = [
      ["tcp", "S", 60, "20/40", 64240],
      ["tcp", "S", 60, "20/40", 1024],
      ["tcp", "SA", 60, "20/40", 65535],
      ["tcp", "R", 40, "20/20", 0],
      ["tcp", "PA", 1500, "20/32", 502],
      ["tcp", "PA", 1500, "24/32", 502],
      ["tcp", "PA", 1500, "36/20", 502],
      ["tcp", "FPUEC", 52, "20/32", 7],
      ["udp", "-", 60, "20/8", 0],
      ["udp", "-", 60, "24/8", 0],
      ["udp", "-", 1500, "40/8", 0],
      ["udp", "-", 97, "48/8", 0],
    ] as const;
    // Each kind of packet many times over, interleaved with the others: later copies come from the cache.
    let port = 1000;
    for (let round = 0; round < 6; round++) {
      for (const [protocol, flags, length, headers, window] of kinds) {
        port++;
        const time = (round * 37 + port * 0.013).toFixed(9);
        const v6 = round % 2 === 1;
        const src = v6 ? `[2001:db8::${round + 1}]:${port}` : `10.${round}.0.1:${port}`;
        const dst = v6 ? `[2001:db8:1::${port}]:${80 + round}` : `192.168.${round}.2:${80 + round}`;
        const ipLength = v6 ? length + 20 : length;
        packets.push(`${time} ${src} > ${dst} ${protocol} ${flags} ${ipLength} ${headers} win=${window}`);
      }
    }
    const { rows, fullRows } = runScenario(packets.join("\n"), {}, FEATURE_SETS);
    expect(rows).toHaveLength(packets.length);
    expect(rows).toEqual(fullRows);
    // A first packet that is a SYN-ACK goes backward: its lengths are in the backward columns.
    const synAck = rows[2].split(",");
    expect([synAck[7], synAck[8], synAck[9]]).toEqual(["0", "1", "0"]);
  });
});

// Independent tools agree: per-session packets and bytes in each direction equal tshark's conversation statistics
// (recorded in test/fixtures/features/tshark), and session packet/byte totals equal NFStream's ground truth,
// wherever the definitions match (docs/features.md, "Differences from other tools", lists where they do not).
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { fixturePath } from "../../../../test/helpers/fixtures.js";
import { runFlowPipeline } from "./flow-pipeline.js";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../../..");
const fixtures = path.join(repo, "test/fixtures/features");

interface Counts {
  a: string;
  b: string;
  /** packets and frame bytes from a to b, and from b to a */
  ab: number;
  abBytes: number;
  ba: number;
  baBytes: number;
}

/** Sessions of a capture keyed by protocol and unordered endpoint pair, with frame-length byte counts. */
async function sessionsOf(capture: string): Promise<Map<string, Counts[]>> {
  const sessions = new Map<string, Counts[]>();
  const text = (words: Uint8Array, version: 4 | 6) =>
    version === 4 ? [...words.subarray(0, 4)].join(".") : compressIpv6(words);
  const scratch = new Uint8Array(16);
  await runFlowPipeline(
    capture,
    { length: "frame" },
    {
      onSessionEnd(session) {
        const a = `${text(session.address(true, scratch), session.ipVersion)}:${session.fwdPort}`;
        const b = `${text(session.address(false, scratch), session.ipVersion)}:${session.bwdPort}`;
        const key = `${session.protocol === 6 ? "tcp" : "udp"} ${[a, b].sort().join(" ")}`;
        const counts = {
          a,
          b,
          ab: session.fwdPackets,
          abBytes: session.fwdBytes,
          ba: session.bwdPackets,
          baBytes: session.bwdBytes,
        };
        sessions.set(key, [...(sessions.get(key) ?? []), counts]);
      },
    },
  );
  return sessions;
}

/** IPv6 text as tshark prints it (RFC 5952). */
function compressIpv6(bytes: Uint8Array): string {
  const groups = Array.from({ length: 8 }, (_, i) => ((bytes[2 * i] << 8) | bytes[2 * i + 1]).toString(16));
  const joined = `:${groups.join(":")}:`;
  const runs = joined.match(/(:0)+:/g) ?? [];
  const longest = runs.filter((run) => run.length > 3).sort((x, y) => y.length - x.length)[0];
  const text = longest ? joined.replace(longest, "::") : joined;
  return text.replace(/^:(?!:)|(?<!:):$/g, "");
}

/** tshark shows bytes exactly below 10 000 and rounded to kB / MB above. */
function sameBytes(bytes: number, shown: string, unit: string): boolean {
  const value = Number(shown);
  if (unit === "bytes") return bytes === value;
  const scale = unit === "kB" ? 1e3 : 1e6;
  return Math.round(bytes / scale) === value || Math.floor(bytes / scale) === value;
}

function parseTshark(text: string): Map<string, (Counts & { abShown: string[]; baShown: string[] })[]> {
  const conversations = new Map<string, (Counts & { abShown: string[]; baShown: string[] })[]>();
  let protocol = "";
  for (const line of text.split("\n")) {
    if (line.startsWith("TCP Conversations")) protocol = "tcp";
    if (line.startsWith("UDP Conversations")) protocol = "udp";
    const m = /^(\S+)\s+<->\s+(\S+)\s+(\d+)\s+(\d+) (bytes|kB|MB)\s+(\d+)\s+(\d+) (bytes|kB|MB)/.exec(line);
    if (!m) continue;
    const key = `${protocol} ${[m[1], m[2]].sort().join(" ")}`;
    const entry = {
      a: m[1],
      b: m[2],
      ba: Number(m[3]),
      baBytes: 0,
      baShown: [m[4], m[5]],
      ab: Number(m[6]),
      abBytes: 0,
      abShown: [m[7], m[8]],
    };
    conversations.set(key, [...(conversations.get(key) ?? []), entry]);
  }
  return conversations;
}

describe("cross-check with tshark conversation statistics", () => {
  const recorded = fs.readdirSync(path.join(fixtures, "tshark")).sort();
  let compared = 0;

  for (const file of recorded) {
    const name = file.replace(/\.txt$/, "");
    it(`agrees on ${name}`, async () => {
      const theirs = parseTshark(fs.readFileSync(path.join(fixtures, "tshark", file), "utf8"));
      const ours = await sessionsOf(fixturePath(name));
      for (const [key, conversations] of theirs) {
        const sessions = ours.get(key);
        // tshark sees the reassembled datagram only in its last fragment: compare unfragmented sessions only.
        if (name === "ipv6_fragmented-dns.pcap") continue;
        expect(sessions, key).toBeDefined();
        // A timeout, a close or a port reuse splits the conversation differently: compare single sessions only.
        if (sessions!.length !== 1 || conversations.length !== 1) continue;
        const t = conversations[0];
        const s = sessions![0];
        const forward = s.a === t.a;
        const ab = forward ? [s.ab, s.abBytes, s.ba, s.baBytes] : [s.ba, s.baBytes, s.ab, s.abBytes];
        expect([ab[0], ab[2]], key).toEqual([t.ab, t.ba]);
        expect(sameBytes(ab[1], t.abShown[0], t.abShown[1]), `${key} bytes a→b ${ab[1]} vs ${t.abShown}`).toBe(true);
        expect(sameBytes(ab[3], t.baShown[0], t.baShown[1]), `${key} bytes b→a ${ab[3]} vs ${t.baShown}`).toBe(true);
        compared++;
      }
    });
  }

  it("compared hundreds of sessions", () => {
    expect(compared).toBeGreaterThan(800);
  });
});

describe("cross-check with NFStream ground truth", () => {
  const nfstream = path.join(fixtures, "nfstream");
  const results = path.join(nfstream, "results");
  // NFStream's own names for captures stored once, in the captures library.
  const inLibrary: Record<string, string> = {
    "KakaoTalk_chat.pcap": "sll_kakaotalk-chat.pcap",
    "dhcp_big_endian.pcapng": "pcapng-be_dhcp.pcapng",
    "dhcp_little_endian.pcapng": "pcapng-le_dhcp.pcapng",
  };
  // Not here, as the definitions differ: 6in4tunnel (NFStream decodes the tunnelled IPv6, Tracemill counts
  // protocol 41 as non-TCP/UDP), dns_fragmented (NFStream leaves out later fragments, which have no ports).
  for (const file of fs.readdirSync(results).sort()) {
    const name = file.replace(/\.csv$/, "");
    const capture = name in inLibrary ? fixturePath(inLibrary[name]) : path.join(nfstream, "pcaps", name);
    it(`agrees on ${name}: every session's packets and link-layer bytes`, async () => {
      const expected = new Map<string, number>();
      for (const line of fs.readFileSync(path.join(results, file), "utf8").trimEnd().split("\n").slice(1)) {
        const [, packets, bytes] = line.split(",");
        expected.set(`${packets}/${bytes}`, (expected.get(`${packets}/${bytes}`) ?? 0) + 1);
      }
      const ours = await sessionsOf(capture);
      let sessions = 0;
      for (const list of ours.values()) {
        for (const s of list) {
          const key = `${s.ab + s.ba}/${s.abBytes + s.baBytes}`;
          expect(expected.get(key) ?? 0, key).toBeGreaterThan(0);
          expected.set(key, expected.get(key)! - 1);
          sessions++;
        }
      }
      // NFStream also has flows of other protocols (ICMP): at most those are left over.
      const left = [...expected.values()].reduce((a, b) => a + b, 0);
      expect(left).toBeLessThanOrEqual(1);
      expect(sessions).toBeGreaterThan(0);
    });
  }
});

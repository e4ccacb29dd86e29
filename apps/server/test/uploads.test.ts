// Uploads against a real server: each accepted format (sniffed, hashed, stored by id), bad files named with their
// reason, the size limit, sign-in, identical bytes kept once, the look-up by digest, deleting an unused upload, and
// the original product's /upfile calls.
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { Client, fixture, startServer } from "./server-harness.js";

const LIMIT = 200_000;
let app: ServedApp;
let client: Client;
beforeAll(async () => {
  app = await startServer({ env: { TRACEMILL_MAX_UPLOAD_BYTES: String(LIMIT) } });
  client = new Client(app.url);
  await client.signUp("Uploader");
});
afterAll(async () => {
  await app?.stop();
});

const bigEndianNanoPcap = () => {
  const header = Buffer.alloc(24);
  header.writeUInt32BE(0xa1b23c4d, 0);
  header.writeUInt16BE(2, 4);
  header.writeUInt16BE(4, 6);
  header.writeUInt32BE(65535, 16);
  header.writeUInt32BE(1, 20);
  return header;
};
const eve = Buffer.from(
  '{"timestamp":"2024-04-21T10:00:00.000000+0000","event_type":"alert","src_ip":"10.0.0.1","dest_ip":"10.0.0.2","proto":"TCP"}\n',
);

const accepted: [string, Buffer, string, string | null][] = [
  ["pcap-be-us_pptp.pcap", fixture("pcap-be-us_pptp.pcap"), "pcap", null],
  ["pcap-le-ns_sll_tcp-handshake-nano.pcap", fixture("pcap-le-ns_sll_tcp-handshake-nano.pcap"), "pcap", null],
  ["raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"), "pcap", null],
  ["be-ns.pcap", bigEndianNanoPcap(), "pcap", null],
  ["pcapng-le_dhcp.pcapng", fixture("pcapng-le_dhcp.pcapng"), "pcapng", null],
  ["pcapng-be_dhcp.pcapng", fixture("pcapng-be_dhcp.pcapng"), "pcapng", null],
  ["erf_5-packets.erf", fixture("erf_5-packets.erf"), "erf", null],
  ["capture.pcap.gz", zlib.gzipSync(fixture("raw101_ipv4.pcap")), "pcap", "gzip"],
  ["alerts.unified2", fixture("pyidstools_ipv6-alert.unified2"), "unified2", null],
  ["eve.json", eve, "eve-json", null],
  ["classification.config", fixture("classification.config"), "classification", null],
  ["bug-28.rules", fixture("sanitize/suricata-verify/bug-28/test.rules"), "rules", null],
];

describe("POST /api/files", () => {
  for (const [name, content, format, compression] of accepted) {
    it(`accepts ${name} as ${format}${compression ? ` (${compression})` : ""}, with its size and SHA-256`, async () => {
      const answer = await client.upload(name, content);
      expect(answer.status).toBe(201);
      expect(answer.body).toMatchObject({
        name,
        format,
        compression,
        size: content.length,
        sha256: crypto.createHash("sha256").update(content).digest("hex"),
      });
      // Stored under its id, byte for byte; never under the user's name.
      const stored = path.join(app.dataDir, "files", answer.body.id);
      expect(fs.readFileSync(stored).equals(content)).toBe(true);
      expect(fs.readdirSync(path.join(app.dataDir, "files"))).not.toContain(name);
    });
  }

  const rejected: [string, Buffer, RegExp][] = [
    ["bad_pcap-invalid-version-1.pcap", fixture("bad_pcap-invalid-version-1.pcap"), /unsupported version 1/],
    ["short.u2", fixture("pyidstools_ipv6-alert.unified2").subarray(0, 12), /unified2 file is truncated/],
    [
      "photo.png",
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      /Unrecognised file format/,
    ],
    ["empty.pcap", Buffer.alloc(0), /The file is empty/],
    ["notes.txt.gz", zlib.gzipSync(Buffer.from("dear diary")), /gzip file does not contain/],
  ];
  for (const [name, content, reason] of rejected) {
    it(`rejects ${name} with 400 naming the reason, and keeps nothing`, async () => {
      const before = fs.readdirSync(path.join(app.dataDir, "files")).length;
      const answer = await client.upload(name, content);
      expect(answer.status).toBe(400);
      expect(answer.body.messages).toHaveLength(1);
      expect(answer.body.messages[0]).toMatch(reason);
      expect(answer.body.messages[0]).toContain(name);
      expect(fs.readdirSync(path.join(app.dataDir, "files")).length).toBe(before);
    });
  }

  it("rejects a file over the configured limit with 413", async () => {
    const big = Buffer.concat([fixture("pcap-be-us_pptp.pcap"), Buffer.alloc(LIMIT)]);
    const answer = await client.upload("big.pcap", big);
    expect(answer.status).toBe(413);
    expect(answer.body.messages[0]).toMatch(/larger than the limit of 200000 bytes/);
  });

  it("asks for a file when the request has none, and for sign-in when anonymous", async () => {
    const none = await client.call("POST", "/api/files", {});
    expect(none.status).toBe(400);
    expect(none.body.messages[0]).toMatch(/No file was sent/);
    const anonymous = await new Client(app.url).upload("raw101_ipv4.pcap", fixture("raw101_ipv4.pcap"));
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.messages).toEqual(["Please sign in"]);
  });

  it("lists my files only", async () => {
    const mine = await client.call("GET", "/api/files");
    expect(mine.status).toBe(200);
    expect(mine.body.length).toBeGreaterThanOrEqual(accepted.length);
    const other = new Client(app.url);
    await other.signUp("Other");
    expect((await other.call("GET", "/api/files")).body).toEqual([]);
    expect((await new Client(app.url).call("GET", "/api/files")).status).toBe(401);
  });
});

describe("uploads kept once, looked up by digest, deleted when unused", () => {
  const digest = (content: Buffer) => ({
    sha256: crypto.createHash("sha256").update(content).digest("hex"),
    size: content.length,
  });

  it("answers the same bytes uploaded again with the first upload (200), storing them once", async () => {
    const owner = new Client(app.url);
    await owner.signUp("Again");
    const content = fixture("dns53.pcap");
    const first = await owner.upload("dns.pcap", content);
    expect(first.status).toBe(201);
    const filesBefore = fs.readdirSync(path.join(app.dataDir, "files")).length;
    const again = await owner.upload("renamed.pcap", content);
    expect([again.status, again.body]).toEqual([200, first.body]);
    expect(fs.readdirSync(path.join(app.dataDir, "files")).length).toBe(filesBefore);
    const listed = (await owner.call("GET", "/api/files")).body;
    expect(listed).toEqual([{ ...first.body, usedBy: [] }]);
  });

  it("looks up my uploads only: another user's identical file is not mine to find; signed out is 401", async () => {
    const owner = new Client(app.url);
    await owner.signUp("Finder");
    const stranger = new Client(app.url);
    await stranger.signUp("Stranger");
    const mine = fixture("pcap-le-ns_eth_get-to-ssh-server.pcap");
    const theirs = fixture("erf_5-packets.erf");
    const uploaded = (await owner.upload("get.pcap", mine)).body;
    await stranger.upload("five.erf", theirs);
    const found = await owner.call("POST", "/api/files/lookup", { files: [digest(mine), digest(theirs)] });
    expect([found.status, found.body]).toEqual([200, { files: [uploaded, null] }]);
    expect((await stranger.call("POST", "/api/files/lookup", { files: [digest(mine)] })).body).toEqual({
      files: [null],
    });
    const bad = await owner.call("POST", "/api/files/lookup", { files: [{ sha256: "00", size: -1 }] });
    expect(bad.status).toBe(400);
    expect(bad.body.messages).toEqual([
      "Invalid files.0.sha256: a SHA-256 as 64 hex digits",
      "Invalid files.0.size: Too small: expected number to be >=0",
    ]);
    const anonymous = await new Client(app.url).call("POST", "/api/files/lookup", { files: [digest(mine)] });
    expect([anonymous.status, anonymous.body]).toEqual([401, { messages: ["Please sign in"] }]);
  });

  it("deletes an unused upload of mine with its bytes; a used one is 409, someone else's 404, signed out 401", async () => {
    const owner = new Client(app.url);
    await owner.signUp("Deleter");
    const used = (await owner.upload("used.pcap", fixture("pcap-be-us_pptp.pcap"))).body;
    const unused = (await owner.upload("unused.pcapng", fixture("pcapng-be_dhcp.pcapng"))).body;
    const job = await owner.call("POST", "/api/jobs", {
      title: "Reads used.pcap",
      capability: "extract",
      inputs: { capture: { fileId: used.id } },
    });
    expect(job.status).toBe(201);
    const listed = (await owner.call("GET", "/api/files")).body;
    expect(Object.fromEntries(listed.map((f: { name: string; usedBy: unknown }) => [f.name, f.usedBy]))).toEqual({
      "used.pcap": [{ id: job.body.id, title: "Reads used.pcap" }],
      "unused.pcapng": [],
    });

    const stranger = new Client(app.url);
    await stranger.signUp("Intruder");
    const foreign = await stranger.call("DELETE", `/api/files/${unused.id}`);
    expect([foreign.status, foreign.body]).toEqual([404, { messages: ["Not found"] }]);
    const anonymous = await new Client(app.url).call("DELETE", `/api/files/${unused.id}`);
    expect([anonymous.status, anonymous.body]).toEqual([401, { messages: ["Please sign in"] }]);
    const busy = await owner.call("DELETE", `/api/files/${used.id}`);
    expect([busy.status, busy.body]).toEqual([
      409,
      { messages: ["used.pcap is an input of 1 job: it can be deleted once no job uses it"] },
    ]);
    expect(fs.existsSync(path.join(app.dataDir, "files", used.id))).toBe(true);

    const deleted = await owner.call("DELETE", `/api/files/${unused.id}`);
    expect(deleted.status).toBe(204);
    expect(fs.existsSync(path.join(app.dataDir, "files", unused.id))).toBe(false);
    expect((await owner.call("GET", "/api/files")).body.map((f: { id: string }) => f.id)).toEqual([used.id]);
    expect((await owner.call("DELETE", `/api/files/${unused.id}`)).status).toBe(404);
  });
});

describe("the original product's uploads", () => {
  it("/upfile and /upfile/badtrafic take captures, /upfile/u2 takes alerts; each answers with _id", async () => {
    const raw = await client.upload("a.pcapng", fixture("pcapng-le_dhcp.pcapng"), "/upfile");
    expect(raw.status).toBe(200);
    expect(raw.body._id).toBe(raw.body.id);
    expect((await client.upload("b.pcap", fixture("raw101_ipv4.pcap"), "/upfile/badtrafic")).body.format).toBe("pcap");
    expect((await client.upload("c.u2", fixture("pyidstools_ipv6-alert.unified2"), "/upfile/u2")).body.format).toBe(
      "unified2",
    );
    const wrong = await client.upload("d.pcap", fixture("raw101_ipv4.pcap"), "/upfile/u2");
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(["d.pcap: expected unified2 or eve-json, but the file is pcap"]);
    const alerts = await client.upload("e.u2", fixture("pyidstools_ipv6-alert.unified2"), "/upfile");
    expect(alerts.status).toBe(400);
  });
});

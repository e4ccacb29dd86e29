// Dataset jobs end to end on a real server: two captures, an attack capture and a schedule in, the split files, the
// card and its Markdown out, with each session's class as the captures were built, each row naming its capture as
// uploaded, and no server path in any output. Parameters the build could only fail on are refused at creation.
import fs from "node:fs";
import path from "node:path";
import { parquetReadObjects } from "hyparquet";
import { compressors } from "hyparquet-compressors";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp } from "../../../packages/core/src/testing/index.js";
import type { ServedApp } from "../../cli/test/run-cli.js";
import { repoRoot } from "../../cli/test/run-cli.js";
import { Client, startServer, waitForStatus } from "./server-harness.js";

const SYN = 0x02;
const ACK = 0x10;
const PSH_ACK = 0x18;
/** 2017-07-04 12:00 UTC: the benign sessions. */
const NOON_UTC = Date.UTC(2017, 6, 4, 12, 0) / 1000;
/** 2017-07-04 13:30 UTC, 10:30 in Halifax (ADT, UTC−3): inside the schedule's window 10:20–10:40. */
const FTP_UTC = Date.UTC(2017, 6, 4, 13, 30) / 1000;

interface Conversation {
  client: string;
  server: string;
  clientPort: number;
  serverPort: number;
  at: number;
}

/** A three-packet TCP session: SYN, SYN-ACK, and 10 bytes from the client. */
function packets(c: Conversation) {
  const frame = (src: string, dst: string, sport: number, dport: number, flags: number, payload = 0) =>
    ethernet(ipv4({ src, dst }, tcp({ srcPort: sport, dstPort: dport, flags, payload })));
  return [
    capturedPacket(frame(c.client, c.server, c.clientPort, c.serverPort, SYN), { linkType: 1, tsSec: c.at }),
    capturedPacket(frame(c.server, c.client, c.serverPort, c.clientPort, SYN | ACK), {
      linkType: 1,
      tsSec: c.at,
      tsNsec: 1_000_000,
    }),
    capturedPacket(frame(c.client, c.server, c.clientPort, c.serverPort, PSH_ACK, 10), {
      linkType: 1,
      tsSec: c.at,
      tsNsec: 2_000_000,
    }),
  ];
}

const capture = (conversations: Conversation[]) =>
  Buffer.from(pcapFile(conversations.sort((a, b) => a.at - b.at).flatMap(packets)));

const benign = (from: number, count: number): Conversation[] =>
  Array.from({ length: count }, (_, i) => ({
    client: `10.0.0.${from + i}`,
    server: "10.0.1.1",
    clientPort: 50_000 + from + i,
    serverPort: 80,
    at: NOON_UTC + from + i,
  }));
/** Monday's attacks: five FTP logins from 172.16.0.1, labelled by the schedule only. */
const ftp: Conversation[] = Array.from({ length: 5 }, (_, i) => ({
  client: "172.16.0.1",
  server: "192.168.10.50",
  clientPort: 40_000 + i,
  serverPort: 21,
  at: FTP_UTC + i,
}));
/** Tuesday's attacks: four SMB sessions, also recorded alone as the attack capture (labelled by 5-tuple). */
const dos: Conversation[] = Array.from({ length: 4 }, (_, i) => ({
  client: "10.9.9.9",
  server: "10.0.1.1",
  clientPort: 45_000 + i,
  serverPort: 445,
  at: NOON_UTC + 100 + i,
}));

const schedule = {
  timezone: "America/Halifax",
  windows: [
    {
      id: "ftp",
      class: "FTP-Patator",
      start: "2017-07-04 10:20",
      end: "2017-07-04 10:40",
      attackers: ["172.16.0.1"],
      victims: ["192.168.10.50"],
      ports: [21],
    },
  ],
};

let app: ServedApp;
let client: Client;
const ids: Record<string, string> = {};

beforeAll(async () => {
  app = await startServer({ fake: false, workers: 1 });
  client = new Client(app.url);
  await client.signUp("Datasets");
  const files: Record<string, Buffer> = {
    "monday.pcap": capture([...benign(1, 10), ...ftp]),
    "tuesday.pcap": capture([...benign(21, 10), ...dos]),
    "dos.pcap": capture([...dos]),
    "clean.pcap": capture(benign(1, 10)),
  };
  for (const [name, bytes] of Object.entries(files)) {
    const upload = await client.upload(name, bytes);
    expect(upload.status).toBe(201);
    ids[name] = upload.body.id;
  }
});
afterAll(async () => {
  await app?.stop();
});

const create = (title: string, inputs: Record<string, unknown>, params: Record<string, unknown>) =>
  client.call("POST", "/api/jobs", { title, capability: "dataset", inputs, params });

async function download(jobId: string, name: string): Promise<Buffer> {
  const response = await client.raw("GET", `/api/jobs/${jobId}/outputs/${encodeURIComponent(name)}`);
  expect(response.status).toBe(200);
  return Buffer.from(await response.arrayBuffer());
}

async function rowsOf(jobId: string, name: string): Promise<Record<string, unknown>[]> {
  const response = await client.raw("GET", `/api/jobs/${jobId}/outputs/${encodeURIComponent(name)}`);
  expect(response.status).toBe(200);
  return parquetReadObjects({ file: await response.arrayBuffer(), compressors });
}

describe("a dataset job", () => {
  it("reads its captures in one run and writes the splits, the card and no server path", async () => {
    const created = await create(
      "CIC Week/one",
      {
        capture: [{ fileId: ids["monday.pcap"] }, { fileId: ids["tuesday.pcap"] }],
        attacks: [{ fileId: ids["dos.pcap"] }],
      },
      {
        labels: { attackClasses: ["DoS"], schedule },
        split: { method: "random", seed: 3 },
        audit: { dropFlagged: true },
      },
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.params.name).toBe("CIC Week one");
    const job = await waitForStatus(client, created.body.id, ["succeeded", "failed", "cancelled"], 120_000);
    expect(job.error).toBeNull();
    expect(job.status).toBe("succeeded");
    // One run over both captures: no parts.
    expect(job.parts).toBeUndefined();
    const inputs = job.inputs.map((i: { role: string; name: string }) => `${i.role}:${i.name}`);
    expect(inputs.filter((i: string) => i.startsWith("capture:"))).toEqual([
      "capture:monday.pcap",
      "capture:tuesday.pcap",
    ]);
    expect(inputs.filter((i: string) => !i.startsWith("capture:"))).toEqual(["attacks:dos.pcap"]);
    const names = job.outputs.map((o: { name: string; kind: string }) => `${o.name}:${o.kind}`).sort();
    expect(names).toEqual(
      [
        "DATASET.md:dataset-card-md",
        "dataset.json:dataset-json",
        "test.parquet:dataset-split-parquet",
        "test.unflagged.parquet:dataset-split-parquet",
        "train.parquet:dataset-split-parquet",
        "train.unflagged.parquet:dataset-split-parquet",
      ].sort(),
    );

    // The classes as the captures were built: 20 benign, 5 in the schedule's window, 4 in the attack capture.
    expect(job.summary.classes).toEqual({ benign: 20, "FTP-Patator": 5, DoS: 4 });
    const rows = [...(await rowsOf(job.id, "train.parquet")), ...(await rowsOf(job.id, "test.parquet"))];
    expect(rows).toHaveLength(29);
    const tally = new Map<string, number>();
    for (const row of rows) {
      const key = `${row.capture}|${row.class}|${row.label_source}|${row.label_rule}`;
      tally.set(key, (tally.get(key) ?? 0) + 1);
    }
    expect(Object.fromEntries(tally)).toEqual({
      "monday.pcap|benign||": 10,
      "monday.pcap|FTP-Patator|schedule|ftp": 5,
      "tuesday.pcap|benign||": 10,
      "tuesday.pcap|DoS|tuples|dos.pcap": 4,
    });
    expect(job.summary.splits.map((s: { rows: number }) => s.rows).reduce((a: number, b: number) => a + b)).toBe(29);
    // The job lists count a dataset's sessions as its rows.
    expect(job.sessions).toBe(29);

    // The card names the inputs by the folders it was built from, and carries the job's parameters.
    const card = JSON.parse((await download(job.id, "dataset.json")).toString("utf8"));
    expect(card.name).toBe("CIC Week one");
    expect(card.captures.map((c: { path: string }) => c.path)).toEqual([
      "captures/monday.pcap",
      "captures/tuesday.pcap",
    ]);
    expect(card.labels.attacks.map((a: { path: string; class: string }) => [a.path, a.class])).toEqual([
      ["attacks/dos.pcap", "DoS"],
    ]);
    expect(card.labels.schedule.timezone).toBe("America/Halifax");
    expect(card.split).toMatchObject({ method: "random", seed: 3 });
    const markdown = (await download(job.id, "DATASET.md")).toString("utf8");
    expect(markdown).toMatch(/^# CIC Week one\n/);
    expect(markdown).toContain("| monday.pcap |");

    // Nothing names the server's directories: not the outputs' bytes, not the job as read.
    const texts = [JSON.stringify((await client.call("GET", `/api/jobs/${job.id}`)).body)];
    for (const output of job.outputs) texts.push((await download(job.id, output.name)).toString("latin1"));
    for (const text of texts) {
      for (const dir of [app.dataDir, fs.realpathSync(app.dataDir), repoRoot]) expect(text).not.toContain(dir);
      expect(text).not.toMatch(/\/(files|jobs)\/[0-9a-f-]{36}|work\.[^"\s]*\.part|out\.[^"\s]*\.part/);
    }
    // The staged inputs and the spec are gone: the job's directory holds its outputs alone.
    const outDir = path.join(app.dataDir, "jobs", job.id, "out");
    expect(fs.readdirSync(outDir).sort()).toEqual(job.outputs.map((o: { name: string }) => o.name).sort());
  });

  it("labels a merge's output exactly from the merge's provenance record, laid beside its capture", async () => {
    const merge = await client.call("POST", "/api/jobs", {
      title: "mix",
      capability: "merge",
      inputs: { background: { fileId: ids["clean.pcap"] }, attacks: { fileId: ids["dos.pcap"] } },
    });
    expect(merge.status, JSON.stringify(merge.body)).toBe(201);
    const merged = await waitForStatus(client, merge.body.id, ["succeeded", "failed", "cancelled"], 60_000);
    expect(merged.status).toBe("succeeded");
    const output = merged.outputs.find((o: { kind: string }) => o.kind === "merged-pcap").name;
    const created = await create("Mixed", { capture: [{ jobId: merged.id, output }] }, { split: { seed: 5 } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const job = await waitForStatus(client, created.body.id, ["succeeded", "failed", "cancelled"], 120_000);
    expect(job.error).toBeNull();
    expect(job.inputs.map((i: { role: string }) => i.role).sort()).toEqual(["capture", "provenance"]);
    // The background's 10 sessions and the attack capture's 4, which the record names: no attack capture given,
    // so their class is "attack".
    expect(job.summary.classes).toEqual({ benign: 10, attack: 4 });
    expect(job.summary.labels.sessionsBySource).toMatchObject({ provenance: 4 });
    const rows = [...(await rowsOf(job.id, "train.parquet")), ...(await rowsOf(job.id, "test.parquet"))];
    const attacks = rows.filter((row) => row.label_source === "provenance");
    expect(attacks.map((row) => row.label_fraction)).toEqual([1, 1, 1, 1]);
    expect(new Set(rows.map((row) => row.capture))).toEqual(new Set([output]));
  });

  it("refuses at creation what the build could only fail on, naming the parameter", async () => {
    const captures = { capture: [{ fileId: ids["monday.pcap"] }] };
    const refused = async (inputs: Record<string, unknown>, params: Record<string, unknown>) => {
      const answer = await create("refused", inputs, params);
      expect(answer.status).toBe(400);
      return answer.body.messages;
    };
    expect(await refused(captures, { labels: { schedule: { ...schedule, timezone: "Mars/Olympus" } } })).toEqual([
      'Invalid parameter labels.schedule.timezone: "Mars/Olympus" is not a time zone: give an IANA name such as "America/Halifax" or an offset such as "-03:00"',
    ]);
    const late = { ...schedule.windows[0], end: "2017-07-04 10:00" };
    expect(await refused(captures, { labels: { schedule: { timezone: "UTC", windows: [late] } } })).toEqual([
      'Invalid parameter labels.schedule.windows[0].end: "2017-07-04 10:00" is before the start "2017-07-04 10:20"',
    ]);
    expect(await refused(captures, { labels: { attackClasses: ["DoS"] } })).toEqual([
      "Invalid parameter labels.attackClasses: 1 classes for 0 attack captures (one class per attack capture, in the same order)",
    ]);
    expect(
      await refused(captures, {
        split: {
          splits: [
            { name: "train", fraction: 0.5 },
            { name: "test", fraction: 0.4 },
          ],
        },
      }),
    ).toEqual(["Invalid parameter split.splits: the fractions must add up to 1"]);
    expect(
      await refused({ ...captures, classification: [{ fileId: ids["dos.pcap"] }, { fileId: ids["dos.pcap"] }] }, {}),
    ).toEqual(["Only one file of role classification (2 given)"]);
  });
});

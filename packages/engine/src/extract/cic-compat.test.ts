// --cic-compat: rows exactly as a CIC-IDS2017 "TrafficLabelling" CSV has them. The header is compared with the
// published one written out below, the key columns with values worked out by hand, and the 76 feature values with the
// plain `--features cic` run's CSV of the same capture (both files parsed here).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type CapturedPacket, TcpFlag } from "@tracemill/core";
import { afterAll, describe, expect, it } from "vitest";
import { capturedPacket, ethernet, ipv4, pcapFile, tcp, udp } from "../../../core/src/testing/index.js";
import { extractImages } from "../images/index.js";
import { extractIpt } from "../ipt/index.js";
import { labelCapture } from "../label/index.js";
import { checkedFlowOptions } from "../pass/index.js";
import { extractFeatures } from "./extract-features.js";

/**
 * CIC-IDS2017's TrafficLabelling header line, byte for byte: as CICFlowMeter's FlowGenerator.java (ahlashkari/
 * CICFlowMeter, the commented `timeBasedHeader`, "total 85 colums") spells it, and as copies of the CSVs' first line
 * in public repositories show it. " Fwd Header Length" is there twice; pandas renames the second " Fwd Header
 * Length.1" when it reads the file.
 */
const PUBLISHED_HEADER =
  "Flow ID, Source IP, Source Port, Destination IP, Destination Port, Protocol, Timestamp, Flow Duration, " +
  "Total Fwd Packets, Total Backward Packets,Total Length of Fwd Packets, Total Length of Bwd Packets, " +
  "Fwd Packet Length Max, Fwd Packet Length Min, Fwd Packet Length Mean, Fwd Packet Length Std," +
  "Bwd Packet Length Max, Bwd Packet Length Min, Bwd Packet Length Mean, Bwd Packet Length Std," +
  "Flow Bytes/s, Flow Packets/s, Flow IAT Mean, Flow IAT Std, Flow IAT Max, Flow IAT Min," +
  "Fwd IAT Total, Fwd IAT Mean, Fwd IAT Std, Fwd IAT Max, Fwd IAT Min," +
  "Bwd IAT Total, Bwd IAT Mean, Bwd IAT Std, Bwd IAT Max, Bwd IAT Min," +
  "Fwd PSH Flags, Bwd PSH Flags, Fwd URG Flags, Bwd URG Flags, Fwd Header Length, Bwd Header Length," +
  "Fwd Packets/s, Bwd Packets/s, Min Packet Length, Max Packet Length, Packet Length Mean, Packet Length Std, " +
  "Packet Length Variance,FIN Flag Count, SYN Flag Count, RST Flag Count, PSH Flag Count, ACK Flag Count, " +
  "URG Flag Count, CWE Flag Count, ECE Flag Count, Down/Up Ratio, Average Packet Size, Avg Fwd Segment Size, " +
  "Avg Bwd Segment Size, Fwd Header Length,Fwd Avg Bytes/Bulk, Fwd Avg Packets/Bulk, Fwd Avg Bulk Rate, " +
  "Bwd Avg Bytes/Bulk, Bwd Avg Packets/Bulk,Bwd Avg Bulk Rate,Subflow Fwd Packets, Subflow Fwd Bytes, " +
  "Subflow Bwd Packets, Subflow Bwd Bytes,Init_Win_bytes_forward, Init_Win_bytes_backward, act_data_pkt_fwd, " +
  "min_seg_size_forward,Active Mean, Active Std, Active Max, Active Min,Idle Mean, Idle Std, Idle Max, Idle Min, " +
  "Label";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "tracemill-cic-compat-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const { SYN, ACK, FIN, PSH } = TcpFlag;
/** 2017-07-03 00:00:00 UTC: 17 350 days after the epoch, × 86 400 s. */
const DAY = 1_499_040_000;
/** 13:55:58 that day: 13 × 3600 + 55 × 60 + 58 = 50 158 s later. */
const T = DAY + 50_158;

function at(seconds: number, nanoseconds: number, frame: Uint8Array): CapturedPacket {
  return capturedPacket(frame, { linkType: 1, tsSec: seconds, tsNsec: nanoseconds });
}
const out = (flags: number, payload = 0) =>
  ethernet(ipv4({ src: "10.0.0.1", dst: "10.0.0.2" }, tcp({ srcPort: 40000, dstPort: 80, flags, payload })));
const back = (flags: number, payload = 0) =>
  ethernet(ipv4({ src: "10.0.0.2", dst: "10.0.0.1" }, tcp({ srcPort: 80, dstPort: 40000, flags, payload })));

/** A handshake, a request and its answer, FIN from both sides and the last ACK; its first packet at T + 0.75 s. */
const session = [
  at(T, 750_000_000, out(SYN)),
  at(T, 760_000_000, back(SYN | ACK)),
  at(T, 770_000_000, out(ACK)),
  at(T, 800_000_000, out(PSH | ACK, 120)),
  at(T + 1, 100_000_000, back(PSH | ACK, 900)),
  at(T + 1, 200_000_000, out(FIN | ACK)),
  at(T + 1, 210_000_000, back(FIN | ACK)),
  at(T + 1, 220_000_000, out(ACK)),
];
/** One DNS query the next day at 00:05:09 (86 400 + 5 × 60 + 9 s after DAY), half a second in. */
const query = at(
  DAY + 86_400 + 309,
  500_000_000,
  ethernet(ipv4({ src: "192.168.10.5", dst: "192.168.10.3" }, udp({ srcPort: 53533, dstPort: 53, payload: 30 }))),
);
const capture = path.join(dir, "capture.pcap");
fs.writeFileSync(capture, pcapFile([...session, query], { nanosecond: true }));

/** The CSV's lines split into fields (no field here holds a comma). */
function readCsv(file: string): { header: string; rows: string[][] } {
  const [header, ...rows] = fs.readFileSync(file, "utf8").trimEnd().split("\n");
  return { header, rows: rows.map((row) => row.split(",")) };
}

async function extract(name: string, options: { cicCompat?: boolean }) {
  const outDir = fs.mkdtempSync(path.join(dir, `${name}-`));
  const { summary } = await extractFeatures(capture, { outDir, features: ["cic"], ...options });
  return { ...readCsv(path.join(outDir, "features.csv")), summary };
}

/** Where the published header has its second Fwd Header Length (0-based), and Label. */
const COPY = 61;
const LABEL = 84;

describe("--cic-compat", () => {
  it("writes CIC-IDS2017's header byte for byte, 85 columns", async () => {
    const { header } = await extract("header", { cicCompat: true });
    expect(header).toBe(PUBLISHED_HEADER);
    expect(header.split(",")).toHaveLength(85);
    expect(header.split(",")[COPY]).toBe(" Fwd Header Length");
    expect(header.split(",")[LABEL]).toBe(" Label");
  });

  it("writes CICFlowMeter's key and Timestamp, the cic set's values, the copy and NeedManualLabel", async () => {
    const compat = await extract("compat", { cicCompat: true });
    const plain = await extract("plain", {});
    expect(compat.rows).toHaveLength(2);
    expect(compat.rows.map((row) => row.length)).toEqual([85, 85]);
    expect(compat.rows.map((row) => row.slice(0, 7))).toEqual([
      ["10.0.0.1-10.0.0.2-40000-80-6", "10.0.0.1", "40000", "10.0.0.2", "80", "6", "03/07/2017 01:55:58 PM"],
      [
        "192.168.10.5-192.168.10.3-53533-53-17",
        "192.168.10.5",
        "53533",
        "192.168.10.3",
        "53",
        "17",
        "04/07/2017 12:05:09 AM",
      ],
    ]);
    // The plain run's row: the 6 key columns, then the 76; the compat row's 76 are those less the copy and Label.
    for (const [i, row] of compat.rows.entries()) {
      const features = [...row.slice(7, COPY), ...row.slice(COPY + 1, LABEL)];
      expect(features).toEqual(plain.rows[i].slice(6));
      expect(row[COPY]).toBe(row[40]);
      expect(row[LABEL]).toBe("NeedManualLabel");
    }
    // Fwd Header Length by hand: four forward TCP headers of 20 bytes; the query's UDP header, 8.
    expect([compat.rows[0][40], compat.rows[1][40]]).toEqual(["100", "8"]);
    expect(compat.summary.options).toEqual({
      features: ["cic"],
      idleTimeout: 120,
      activeTimeout: 120,
      length: "ip",
      cicCompat: true,
    });
    expect(plain.summary.options).toEqual({ features: ["cic"], idleTimeout: 120, activeTimeout: 120, length: "ip" });
  });

  it("labels as CIC-IDS2017 does: ATTACK or BENIGN for binary labels, the class or BENIGN for alerts", async () => {
    const attacks = path.join(dir, "attacks.pcap");
    fs.writeFileSync(attacks, pcapFile(session.slice(0, 1), { nanosecond: true }));
    const binaryDir = fs.mkdtempSync(path.join(dir, "binary-"));
    await labelCapture(capture, { attacks, features: ["cic"], cicCompat: true }, { outDir: binaryDir });
    const binary = readCsv(path.join(binaryDir, "labelled.csv"));
    expect(binary.header).toBe(PUBLISHED_HEADER);
    expect(binary.rows.map((row) => [row[0], row[LABEL]])).toEqual([
      ["10.0.0.1-10.0.0.2-40000-80-6", "ATTACK"],
      ["192.168.10.5-192.168.10.3-53533-53-17", "BENIGN"],
    ]);

    const alerts = path.join(dir, "eve.json");
    const alert = {
      timestamp: "2017-07-03T13:55:59.000000+0000",
      event_type: "alert",
      src_ip: "10.0.0.2",
      src_port: 80,
      dest_ip: "10.0.0.1",
      dest_port: 40000,
      proto: "TCP",
      alert: { gid: 1, signature_id: 1, rev: 1, signature: "test", category: "Web Application Attack", severity: 1 },
    };
    fs.writeFileSync(alerts, `${JSON.stringify(alert)}\n`);
    const classification = path.resolve(
      import.meta.dirname,
      "../../../../test/fixtures/alerts/pyidstools_classification.config",
    );
    const classDir = fs.mkdtempSync(path.join(dir, "classes-"));
    await labelCapture(capture, { alerts, classification, features: ["cic"], cicCompat: true }, { outDir: classDir });
    const classes = readCsv(path.join(classDir, "classified.csv"));
    expect(classes.header).toBe(PUBLISHED_HEADER);
    expect(classes.rows.map((row) => [row[0], row[LABEL]])).toEqual([
      ["10.0.0.1-10.0.0.2-40000-80-6", "web-application-attack"],
      ["192.168.10.5-192.168.10.3-53533-53-17", "BENIGN"],
    ]);
  });

  it("goes with the cic set alone, CSV output, extract and label; anything else is a one-line BAD_OPTION", async () => {
    for (const features of [undefined, ["tracemill"], ["cic", "tracemill"], ["nfstream"]]) {
      expect(() => checkedFlowOptions({ features, cicCompat: true })).toThrow(
        expect.objectContaining({
          code: "BAD_OPTION",
          message: expect.stringMatching(/^--cic-compat .*--features cic alone/),
        }),
      );
    }
    expect(checkedFlowOptions({ features: ["cic"], cicCompat: false })).not.toHaveProperty("cicCompat");
    const outDir = fs.mkdtempSync(path.join(dir, "refused-"));
    const options = { features: ["cic"], cicCompat: true };
    await expect(extractFeatures(capture, { outDir, ...options, format: "parquet" })).rejects.toMatchObject({
      code: "BAD_OPTION",
      message: expect.stringContaining("Parquet"),
    });
    await expect(extractIpt(capture, options, { outDir })).rejects.toMatchObject({
      code: "BAD_OPTION",
      message: "--cic-compat is for extract and label: ipt writes Tracemill's rows beside its own outputs",
    });
    await expect(extractImages(capture, { ...options, flowsPerImage: 4 }, { outDir })).rejects.toMatchObject({
      code: "BAD_OPTION",
      message: expect.stringContaining("--cic-compat is for extract and label"),
    });
    expect(fs.readdirSync(outDir)).toEqual([]);
  });
});

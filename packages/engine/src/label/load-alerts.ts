// Reads the alerts a multi-class labelling uses: unified2 (any Snort/Suricata/Tracemill writer) or Suricata EVE JSON,
// with an optional classification.config naming the classtypes.
import fs from "node:fs";
import readline from "node:readline";
import {
  type Alert,
  alertFromUnified2Event,
  type ClassificationTable,
  type LabelAlert,
  parseClassificationConfig,
  parseEveAlertLine,
  parseIpAddress,
  TracemillError,
  Unified2Reader,
  type Unified2Warning,
} from "@tracemill/core";

export type AlertFormat = "unified2" | "eve";

export interface LoadedAlerts {
  format: AlertFormat;
  alerts: LabelAlert[];
  /** Records of the unified2 file that were skipped (unknown types), for the summary. */
  warnings: Unified2Warning[];
}

/** Reads and parses a classification.config. */
export async function loadClassification(file: string): Promise<ClassificationTable> {
  const text = await readText(file);
  return parseClassificationConfig(text, file);
}

/** Reads every alert of `file`, sniffing its format: EVE JSON starts with "{", unified2 with a binary record header. */
export async function loadAlerts(file: string, classifications?: ClassificationTable): Promise<LoadedAlerts> {
  const format = await sniffFormat(file);
  const alerts: LabelAlert[] = [];
  const warnings: Unified2Warning[] = [];
  if (format === "eve") {
    const lines = readline.createInterface({ input: fs.createReadStream(file), crlfDelay: Number.POSITIVE_INFINITY });
    let line = 0;
    for await (const text of lines) {
      line++;
      if (text.trim() === "") continue;
      const alert = parseEveAlertLine(text, classifications, { file, line });
      if (alert) alerts.push(toLabelAlert(alert));
    }
  } else {
    const reader = new Unified2Reader({ file, onWarning: (warning) => warnings.push(warning) });
    for await (const chunk of fs.createReadStream(file)) {
      reader.push(chunk as Buffer, (record) => {
        if (record.kind === "event") alerts.push(toLabelAlert(alertFromUnified2Event(record, classifications)));
      });
    }
    reader.finish();
  }
  return { format, alerts, warnings };
}

/** What matching needs of a normalized alert; a class without a name gets one from its id so rows stay readable. */
export function toLabelAlert(alert: Alert): LabelAlert {
  const src = parseIpAddress(alert.src);
  const dst = parseIpAddress(alert.dst);
  if (!src || !dst)
    throw new TracemillError("BAD_INPUT", `alert with unreadable addresses ${alert.src} → ${alert.dst}`);
  return {
    timeUs: alert.tsSec * 1e6 + Math.floor(alert.tsNsec / 1000),
    protocol: alert.protocol,
    addressLength: src.length,
    src,
    srcPort: alert.srcPort,
    dst,
    dstPort: alert.dstPort,
    priority: alert.priority,
    classId: alert.classId,
    className: alert.className !== "" ? alert.className : alert.classId > 0 ? `classtype-${alert.classId}` : "unknown",
    generatorId: alert.gid,
    signatureId: alert.sid,
  };
}

async function sniffFormat(file: string): Promise<AlertFormat> {
  const handle = await open(file);
  try {
    const head = Buffer.alloc(64);
    const { bytesRead } = await handle.read(head, 0, head.length, 0);
    const text = head.subarray(0, bytesRead).toString("latin1").trimStart();
    return text.startsWith("{") ? "eve" : "unified2";
  } finally {
    await handle.close();
  }
}

async function open(file: string): Promise<fs.promises.FileHandle> {
  try {
    return await fs.promises.open(file, "r");
  } catch {
    throw new TracemillError("NOT_FOUND", `${file}: cannot open the file`, { file });
  }
}

async function readText(file: string): Promise<string> {
  const handle = await open(file);
  try {
    return await handle.readFile("utf8");
  } finally {
    await handle.close();
  }
}

// Reads the alerts a multi-class labelling uses: unified2 (any Snort/Suricata/Tracemill writer) or Suricata EVE JSON,
// with an optional classification.config naming the classtypes. What is refused and what is skipped and counted:
// docs/formats.md, "Alert inputs".
import {
  type Alert,
  alertFromUnified2Event,
  type ClassificationTable,
  type EveAlertFields,
  EveAlertReader,
  type LabelAlert,
  parseClassificationConfig,
  parseIpAddress,
  TracemillError,
  Unified2Reader,
  type Unified2RecordAt,
} from "@tracemill/core";
import { AlertInput } from "./alert-input.js";
import { eachLine, READ_BYTES } from "./eve-lines.js";

export type AlertFormat = "unified2" | "eve";

export interface LoadedAlerts {
  format: AlertFormat;
  alerts: LabelAlert[];
  /** EVE lines of other events (flow, http, stats, …): counted, not read further. */
  otherEvents: number;
  /** EVE alerts without IP addresses (Suricata's alerts on non-IP packets): no session holds them, so skipped. */
  alertsWithoutAddresses: number;
  /** unified2 records of unknown types, skipped. */
  skippedRecords: number;
  /** One line per kind of skipped entry: how many, and where the first is. */
  warnings: string[];
}

/** A classification.config is a few kilobytes; a larger file is something else, refused before it is read whole. */
const CLASSIFICATION_LIMIT = 1024 * 1024;

/** Reads and parses a classification.config. */
export async function loadClassification(file: string): Promise<ClassificationTable> {
  const input = await AlertInput.open(file, "a classification.config");
  try {
    const buffer = Buffer.allocUnsafe(CLASSIFICATION_LIMIT + 1);
    let filled = 0;
    for (let n = -1; n !== 0 && filled < buffer.length; filled += n) {
      n = await input.read(buffer, filled, buffer.length - filled);
    }
    if (filled > CLASSIFICATION_LIMIT) {
      throw new TracemillError("BAD_INPUT", `${file}: larger than 1 MiB, not a classification.config`, { file });
    }
    return parseClassificationConfig(buffer.toString("utf8", 0, filled), file);
  } finally {
    await input.close();
  }
}

/** Reads every alert of `file`, sniffing its format: EVE JSON starts with "{", unified2 with a binary record header. */
export async function loadAlerts(file: string, classifications?: ClassificationTable): Promise<LoadedAlerts> {
  const input = await AlertInput.open(file, "an alert file");
  try {
    const head = Buffer.allocUnsafe(READ_BYTES);
    let filled = 0;
    let first = -1;
    // Enough to see the first byte that is not white space (a pipe may give a byte at a time).
    while (first < 0) {
      const n = await input.read(head, filled, head.length - filled);
      if (n === 0) break;
      filled += n;
      const bom = filled >= 3 && head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
      first = head.subarray(0, filled).findIndex((c, i) => i >= bom && !isSpace(c));
    }
    if (filled >= 2 && head[0] === 0x1f && head[1] === 0x8b) {
      throw new TracemillError("BAD_INPUT", `${file}: gzip-compressed; alert files are read uncompressed`, { file });
    }
    const loaded: LoadedAlerts = {
      format: first < 0 || head[first] === 123 ? "eve" : "unified2",
      alerts: [],
      otherEvents: 0,
      alertsWithoutAddresses: 0,
      skippedRecords: 0,
      warnings: [],
    };
    if (loaded.format === "eve") await readEve(input, { buffer: head, filled }, loaded, classifications);
    else await readUnified2(input, head.subarray(0, filled), loaded, classifications);
    return loaded;
  } finally {
    await input.close();
  }
}

async function readEve(
  input: AlertInput,
  head: { buffer: Buffer; filled: number },
  loaded: LoadedAlerts,
  classifications?: ClassificationTable,
): Promise<void> {
  const reader = new EveAlertReader(classifications, (bytes) =>
    Buffer.from(bytes.buffer, bytes.byteOffset, bytes.length).toString("utf8"),
  );
  // One object for every line: only an error keeps it.
  const source = { file: input.file, line: 0 };
  let firstWithoutAddresses = 0;
  await eachLine(input, head, (b, start, end, line) => {
    if (isBlank(b, start, end)) return;
    source.line = line;
    const fields = reader.read(b, start, end, source);
    if (!fields) loaded.otherEvents++;
    else if (fields.addressLength === 0) {
      if (loaded.alertsWithoutAddresses++ === 0) firstWithoutAddresses = line;
    } else loaded.alerts.push(labelAlertOfFields(fields));
  });
  const skipped = loaded.alertsWithoutAddresses;
  if (skipped > 0) {
    loaded.warnings.push(
      `${input.file}: ${skipped} alert${skipped === 1 ? "" : "s"} without IP addresses skipped (no session can hold them), the first on line ${firstWithoutAddresses}`,
    );
  }
}

async function readUnified2(
  input: AlertInput,
  head: Uint8Array,
  loaded: LoadedAlerts,
  classifications?: ClassificationTable,
): Promise<void> {
  let first = "";
  const reader = new Unified2Reader({
    file: input.file,
    onWarning: (warning) => {
      if (loaded.skippedRecords++ === 0) first = `the first (type ${warning.recordType}) at byte ${warning.offset}`;
    },
  });
  const onRecord = (record: Unified2RecordAt) => {
    if (record.kind === "event") loaded.alerts.push(toLabelAlert(alertFromUnified2Event(record, classifications)));
  };
  reader.push(head, onRecord);
  for (;;) {
    // A fresh buffer each time: the reader keeps views of the bytes of a record not yet complete.
    const chunk = Buffer.allocUnsafe(READ_BYTES);
    const n = await input.read(chunk, 0, chunk.length);
    if (n === 0) break;
    reader.push(chunk.subarray(0, n), onRecord);
  }
  reader.finish();
  const skipped = loaded.skippedRecords;
  if (skipped > 0) {
    loaded.warnings.push(
      `${input.file}: ${skipped} unified2 record${skipped === 1 ? "" : "s"} of unknown type skipped, ${first}`,
    );
  }
}

/** What matching needs of a normalized alert. */
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
    className: classNameOf(alert.className, alert.classId),
    generatorId: alert.gid,
    signatureId: alert.sid,
  };
}

/** As toLabelAlert, for the reused fields of an EVE alert with addresses. */
function labelAlertOfFields(f: EveAlertFields): LabelAlert {
  const { rule } = f;
  return {
    timeUs: f.tsSec * 1e6 + Math.floor(f.tsNsec / 1000),
    protocol: f.protocol,
    addressLength: f.addressLength,
    src: f.src.slice(0, f.addressLength),
    srcPort: f.srcPort,
    dst: f.dst.slice(0, f.addressLength),
    dstPort: f.dstPort,
    priority: rule.priority,
    classId: rule.classId,
    className: classNameOf(rule.className, rule.classId),
    generatorId: rule.gid,
    signatureId: rule.sid,
  };
}

/** A class without a name gets one from its id, so rows stay readable. */
function classNameOf(name: string, id: number): string {
  return name !== "" ? name : id > 0 ? `classtype-${id}` : "unknown";
}

/** JSON's white space. */
function isSpace(c: number): boolean {
  return c === 32 || c === 9 || c === 10 || c === 13;
}

function isBlank(b: Uint8Array, start: number, end: number): boolean {
  for (let i = start; i < end; i++) if (!isSpace(b[i])) return false;
  return true;
}

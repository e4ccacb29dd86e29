// Checks a chosen file before any upload: the extension, then the first bytes (magic) against what the input expects.
export type InputKind = "capture" | "alerts" | "classification" | "rules";

export const CAPTURE_EXTENSIONS = [".pcap", ".cap", ".dmp", ".pcapng", ".erf"] as const;

/** What each kind of input accepts, for the file dialog's accept attribute and the messages. */
export const acceptByKind: Record<InputKind, string> = {
  capture: [...CAPTURE_EXTENSIONS, ".gz"].join(","),
  alerts: ".u2,.log,.json,.gz",
  classification: ".config,.txt",
  rules: ".rules,.txt",
};

function lowerName(name: string): string {
  return name.toLowerCase();
}

export function extensionError(name: string, kind: InputKind): string | undefined {
  const lower = lowerName(name).replace(/\.gz$/, "");
  if (kind === "capture") {
    if (CAPTURE_EXTENSIONS.some((ext) => lower.endsWith(ext)) || lowerName(name).endsWith(".gz")) return undefined;
    return `${name}: not a capture file (accepted: ${CAPTURE_EXTENSIONS.join(" ")} and .gz)`;
  }
  if (kind === "alerts") {
    if (/\.(u2|json|log)$/.test(lower) || /unified2/.test(lower) || lowerName(name).endsWith(".gz")) return undefined;
    return `${name}: not an alert file (accepted: unified2 .u2 or EVE .json)`;
  }
  if (kind === "rules") {
    if (/\.(rules|txt)$/.test(lower)) return undefined;
    return `${name}: not a rules file (accepted: .rules)`;
  }
  if (/\.(config|txt)$/.test(lower)) return undefined;
  return `${name}: not a classification file (accepted: .config or .txt)`;
}

const PCAP_MAGICS = [0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1];
const PCAPNG_MAGIC = 0x0a0d0d0a;
/** unified2 record types (packet, events v1/v2 for IPv4/IPv6, extra data). */
const UNIFIED2_TYPES = new Set([2, 7, 72, 104, 105, 110]);

/** Names the format the first bytes show, or undefined when they match none. */
export function sniffFormat(head: Uint8Array): string | undefined {
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return "gzip";
  if (head.length < 4) return undefined;
  const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
  const be = view.getUint32(0, false);
  if (PCAP_MAGICS.includes(be)) return "pcap";
  if (be === PCAPNG_MAGIC) return "pcapng";
  if (head.length >= 16) {
    // ERF has no magic: a plausible record type and a record length of at least its 16-byte header.
    const type = head[8] & 0x7f;
    const rlen = view.getUint16(10, false);
    if (type >= 1 && type <= 48 && rlen >= 16 && rlen <= 65_535 + 16) {
      if (!UNIFIED2_TYPES.has(be)) return "erf";
    }
  }
  if (UNIFIED2_TYPES.has(be) && head.length >= 8) return "unified2";
  const text = new TextDecoder().decode(head).trimStart();
  if (text.startsWith("{")) return "eve-json";
  if (/^(alert|drop|pass|reject)\s+\w+\s/m.test(text)) return "rules";
  if (/^(#|config classification)/m.test(text)) return "classification";
  return undefined;
}

const formatsByKind: Record<InputKind, string[]> = {
  capture: ["pcap", "pcapng", "erf", "gzip"],
  alerts: ["unified2", "eve-json", "gzip"],
  classification: ["classification"],
  rules: ["rules"],
};

const expected: Record<InputKind, string> = {
  capture: "a pcap, pcapng or ERF capture",
  alerts: "a unified2 or EVE alert file",
  classification: "a classification file",
  rules: "a Suricata rules file",
};

/** The first bytes of a file, read with FileReader (available in every browser and in jsdom). */
export function readHead(file: Blob, bytes = 64): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(new Uint8Array(reader.result as ArrayBuffer));
    reader.onerror = () => reject(reader.error);
    reader.readAsArrayBuffer(file.slice(0, bytes));
  });
}

/** The whole check: undefined when the file may be uploaded, else a message for the user. */
export async function checkFile(file: File, kind: InputKind): Promise<string | undefined> {
  const byName = extensionError(file.name, kind);
  if (byName) return byName;
  if (file.size === 0) return `${file.name}: the file is empty`;
  const format = sniffFormat(await readHead(file));
  if (format && formatsByKind[kind].includes(format)) return undefined;
  // Text files may open with comments only; the server reads them whole and says what is wrong.
  if ((kind === "classification" || kind === "rules") && (format === undefined || format === "classification"))
    return undefined;
  return `${file.name}: the content does not look like ${expected[kind]}`;
}

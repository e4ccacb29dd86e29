// Checks a chosen file before any upload: the extension, then the first bytes against what the input expects, judged
// by the sniffer the server uses on upload (@tracemill/core/file-kind).
import { FILE_KIND_HEAD_BYTES, type FileKind, sniffFileKind } from "@tracemill/core/file-kind";

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

/** Gzip is taken as it comes: the browser does not inflate it here, the server looks inside on upload. */
const formatsByKind: Record<InputKind, readonly (FileKind | "gzip")[]> = {
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
export function readHead(file: Blob, bytes = FILE_KIND_HEAD_BYTES): Promise<Uint8Array> {
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
  const head = await readHead(file);
  // Header problems (a pcap of another version, …) are left to the server, which names them on upload.
  const format = sniffFileKind(head, { complete: head.length === file.size }).kind;
  if (format && formatsByKind[kind].includes(format)) return undefined;
  // Text files may open with comments only; the server reads them whole and says what is wrong.
  if ((kind === "classification" || kind === "rules") && (format === undefined || format === "classification"))
    return undefined;
  return `${file.name}: the content does not look like ${expected[kind]}`;
}

// The file-kind icon set: a page with a coloured band, a short tag and a glyph; one look for every file the app shows.
import type { ReactNode } from "react";

export type FileKind =
  | "pcap"
  | "pcap-bom"
  | "csv"
  | "parquet"
  | "pcap-alerts"
  | "u2"
  | "pcap-clean"
  | "pcap-attack"
  | "pcap-merged"
  | "csv-binary"
  | "csv-class"
  | "txt-ipt"
  | "zip-images"
  | "json"
  | "other";

interface KindLook {
  tag: string;
  color: string;
  glyph: ReactNode;
  title: string;
}

const wave = <path d="M6 26 l3 -6 l3 10 l3 -12 l3 8 l3 -4" fill="none" strokeWidth="1.6" />;
const looks: Record<FileKind, KindLook> = {
  pcap: { tag: "PCAP", color: "#2f6fb3", glyph: wave, title: "Packet capture" },
  "pcap-bom": {
    tag: "PCAP",
    color: "#5a4fb3",
    glyph: <path d="M7 30 h16 M9 20 l4 4 l-4 4" fill="none" strokeWidth="1.6" />,
    title: "Packet capture with byte-order mark",
  },
  csv: {
    tag: "CSV",
    color: "#2e8b57",
    glyph: <path d="M6 18 h18 M6 23 h18 M6 28 h18 M12 14 v18 M18 14 v18" fill="none" strokeWidth="1.2" />,
    title: "CSV of session features",
  },
  // Bars of falling height: a table kept by columns, each compressed.
  parquet: {
    tag: "PARQ",
    color: "#a23b72",
    glyph: <path d="M7 15 h4 v15 h-4 z M13 19 h4 v11 h-4 z M19 23 h4 v7 h-4 z" strokeWidth="1" />,
    title: "Parquet of session features (typed columns)",
  },
  "pcap-alerts": {
    tag: "IDS",
    color: "#c8602a",
    glyph: <path d="M15 15 l8 14 h-16 z M15 20 v4 M15 26 v1" fill="none" strokeWidth="1.6" />,
    title: "Capture with attacks identified by the IDS",
  },
  u2: {
    tag: "U2",
    color: "#b8860b",
    glyph: <path d="M9 16 h12 v8 l-6 5 l-6 -5 z" fill="none" strokeWidth="1.6" />,
    title: "Unified2 alert file",
  },
  "pcap-clean": {
    tag: "CLEAN",
    color: "#1f9d8a",
    glyph: <path d="M8 22 l5 5 l9 -11" fill="none" strokeWidth="2" />,
    title: "Attack-free capture",
  },
  "pcap-attack": {
    tag: "ATTACK",
    color: "#c0392b",
    glyph: <path d="M9 16 l12 12 M21 16 l-12 12" fill="none" strokeWidth="2" />,
    title: "Capture of attack samples",
  },
  "pcap-merged": {
    tag: "MIX",
    color: "#7d4bb3",
    glyph: <path d="M7 16 q8 0 8 7 q0 7 8 7 M7 30 q8 0 8 -7" fill="none" strokeWidth="1.6" />,
    title: "Aggregation of two captures",
  },
  "csv-binary": {
    tag: "0|1",
    color: "#3b7d2e",
    glyph: (
      <text x="15" y="28" fontSize="9" textAnchor="middle" stroke="none">
        01
      </text>
    ),
    title: "Binary-labelled CSV (1 attack, 0 normal)",
  },
  "csv-class": {
    tag: "CLASS",
    color: "#8a6d1f",
    glyph: <path d="M7 17 h6 v4 h-6 z M17 17 h6 v4 h-6 z M7 25 h6 v4 h-6 z M17 25 h6 v4 h-6 z" strokeWidth="1.2" />,
    title: "CSV classified with the IDS classification scheme",
  },
  "txt-ipt": {
    tag: "TXT",
    color: "#546e7a",
    glyph: <path d="M6 28 v-4 M10 28 v-9 M14 28 v-6 M18 28 v-11 M22 28 v-3" fill="none" strokeWidth="2" />,
    title: "Inter-packet time series (text)",
  },
  "zip-images": {
    tag: "ZIP",
    color: "#6d6d6d",
    glyph: <path d="M8 15 h14 v14 h-14 z M8 26 l4 -4 l3 3 l3 -5 l4 6" fill="none" strokeWidth="1.4" />,
    title: "ZIP of grayscale images (n × 280 pixels)",
  },
  json: {
    tag: "JSON",
    color: "#8e44ad",
    glyph: (
      <path
        d="M11 16 q-3 0 -3 3 v2 l-2 2 l2 2 v2 q0 3 3 3 M19 16 q3 0 3 3 v2 l2 2 l-2 2 v2 q0 3 -3 3"
        fill="none"
        strokeWidth="1.4"
      />
    ),
    title: "JSON (EVE alerts or a summary)",
  },
  other: { tag: "FILE", color: "#777", glyph: wave, title: "Other file" },
};

export function fileKindTitle(kind: FileKind): string {
  return looks[kind].title;
}

/** Below this width the band's tag (PCAP, CSV, ATTACK) cannot be read, so no file icon is drawn smaller. */
export const MIN_FILE_ICON_PX = 24;

export function FileIcon({ kind, size = 32, label }: { kind: FileKind; size?: number; label?: string }) {
  const look = looks[kind] ?? looks.other;
  const width = Math.max(size, MIN_FILE_ICON_PX);
  return (
    <svg
      className="icon file-icon"
      width={width}
      height={width * 1.2}
      viewBox="0 0 30 36"
      role="img"
      aria-label={label ?? look.title}
    >
      <path d="M2 1 h19 l7 7 v27 h-26 z" fill="var(--icon-paper)" stroke="var(--icon-line)" strokeWidth="1" />
      <path d="M21 1 v7 h7" fill="none" stroke="var(--icon-line)" strokeWidth="1" />
      <rect x="2" y="4" width="17" height="7" fill={look.color} />
      <text
        x="10.5"
        y="9.6"
        fontSize={look.tag.length > 4 ? 4.2 : 5.4}
        fill="#fff"
        textAnchor="middle"
        fontWeight="700"
      >
        {look.tag}
      </text>
      <g stroke={look.color} fill={look.color}>
        {look.glyph}
      </g>
    </svg>
  );
}

/** Guesses an output's icon from the kind the engine reports and its file name. */
export function fileKindOf(kind: string, name: string): FileKind {
  const k = `${kind} ${name}`.toLowerCase();
  if (kind.toLowerCase().includes("parquet") || name.toLowerCase().endsWith(".parquet")) return "parquet";
  if (k.includes("image") || (k.includes("zip") && !k.includes("csv"))) return "zip-images";
  if (k.includes("ipt") || name.endsWith(".txt")) return "txt-ipt";
  if (k.includes("class") && name.endsWith(".csv")) return "csv-class";
  if ((k.includes("label") || k.includes("binary")) && name.endsWith(".csv")) return "csv-binary";
  if (name.endsWith(".csv")) return "csv";
  if (k.includes("u2") || k.includes("unified2")) return "u2";
  if (name.endsWith(".json") || k.includes("eve")) return "json";
  if (k.includes("clean") || k.includes("attack-free") || k.includes("benign")) return "pcap-clean";
  if (k.includes("attack") || k.includes("bad")) return "pcap-attack";
  if (k.includes("merge") || k.includes("mix")) return "pcap-merged";
  if (k.includes("alert")) return "pcap-alerts";
  if (/\.(pcap|pcapng|cap|dmp|erf)(\.gz)?$/.test(name) || k.includes("pcap")) return "pcap";
  return "other";
}

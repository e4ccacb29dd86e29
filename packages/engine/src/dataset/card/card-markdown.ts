// DATASET.md: the card for people, rendered from dataset.json's content.
interface Card {
  name: string;
  features: readonly string[];
  split: { method: string; seed: number; hostKey?: string };
  audit: { depth: number; threshold: number; sampleRows: number };
  built: {
    tracemill: { version: string };
    inputs: {
      name: string;
      bytes: number;
      sha256: string | null;
      first: string | null;
      last: string | null;
      sessions: number;
      complete: boolean;
    }[];
    rows: number;
    columns: { name: string }[];
    classes: Record<string, number>;
    splits: {
      name: string;
      fraction: number;
      rows: number;
      achieved: number;
      byClass: Record<string, number>;
      file: string;
    }[];
    sessions: { byEndReason: Record<string, number>; byProtocol: Record<string, number> };
    packets: { read: number; decoded: number; ignored: Record<string, number> };
    labels: {
      precedence: string[];
      sessionsBySource: Record<string, number>;
      conflicts: Record<string, number>;
      agreements: Record<string, number>;
    };
    audit: {
      trainSplit: string;
      testSplit: string;
      sampled: { train: number; test: number };
      rows: {
        column: string;
        balancedAccuracy: number | null;
        binaryBalancedAccuracy: number | null;
        flagged: boolean;
        reason: string | null;
        detail: string;
      }[];
      skipped: { column: string; reason: string }[];
    };
    caveats: string[];
  };
}

const cell = (value: unknown) => String(value).replace(/\|/g, "\\|").replace(/\n/g, " ");
const table = (head: readonly string[], rows: readonly unknown[][]) =>
  [
    `| ${head.join(" | ")} |`,
    `| ${head.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.map(cell).join(" | ")} |`),
  ].join("\n");
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const score = (x: number | null) => (x === null ? "–" : x.toFixed(3));

export function cardMarkdown(card: Card): string {
  const b = card.built;
  const classNames = Object.keys(b.classes);
  const flagged = b.audit.rows.filter((r) => r.flagged);
  const parts = [
    `# ${card.name}`,
    `A dataset of ${b.rows} sessions from ${b.inputs.length} capture${b.inputs.length === 1 ? "" : "s"}, built by Tracemill ${b.tracemill.version} with the feature sets ${card.features.join(", ")} (${b.columns.length} columns). Build it again from the same captures with \`tracemill dataset build dataset.json\`.`,
    "## Caveats",
    b.caveats.length === 0 ? "None found." : b.caveats.map((c) => `- ${c}`).join("\n"),
    "## Inputs",
    table(
      ["capture", "bytes", "SHA-256", "first session", "last session", "sessions", "read to the end"],
      b.inputs.map((i) => [
        i.name,
        i.bytes,
        i.sha256 ?? "not taken",
        i.first ?? "–",
        i.last ?? "–",
        i.sessions,
        i.complete ? "yes" : "no (damaged)",
      ]),
    ),
    "## Classes and splits",
    `Split method: ${card.split.method}${card.split.method === "host" ? ` (hosts: ${card.split.hostKey})` : ""}, seed ${card.split.seed}.`,
    table(
      ["split", "file", "target", "achieved", "rows", ...classNames],
      b.splits.map((s) => [
        s.name,
        s.file,
        pct(s.fraction),
        pct(s.achieved),
        s.rows,
        ...classNames.map((c) => s.byClass[c] ?? 0),
      ]),
    ),
    "## Labels",
    `Sources in the order of precedence: ${b.labels.precedence.join(", ") || "none"}.`,
    table(
      ["labelled by", "sessions"],
      Object.entries(b.labels.sessionsBySource).map(([k, v]) => [k === "none" ? "none (benign)" : k, v]),
    ),
    Object.keys(b.labels.conflicts).length === 0
      ? "No conflicts between sources."
      : table(["sources (winner > other)", "sessions with different classes"], Object.entries(b.labels.conflicts)),
    "## Sessions and packets",
    table(["end reason", "sessions"], Object.entries(b.sessions.byEndReason)),
    table(
      ["packets", "count"],
      [
        ["read", b.packets.read],
        ["in sessions", b.packets.decoded],
        ...Object.entries(b.packets.ignored).map(([k, v]) => [`ignored: ${k}`, v]),
      ],
    ),
    "## Leakage audit",
    `Each column alone, as a depth-${card.audit.depth} decision tree trained on ${b.audit.sampled.train} rows of ${b.audit.trainSplit} and scored on ${b.audit.sampled.test} rows of ${b.audit.testSplit} (balanced accuracy over the classes and, with more than two, over attack against benign; flagged at ${card.audit.threshold} or above in either, and identifiers by name). ${flagged.length} of ${b.audit.rows.length} columns flagged.`,
    table(
      ["column", "balanced accuracy (classes)", "(attack vs benign)", "flagged", "why"],
      [...flagged, ...b.audit.rows.filter((r) => !r.flagged)].map((r) => [
        r.column,
        score(r.balancedAccuracy),
        score(r.binaryBalancedAccuracy),
        r.flagged ? "yes" : "",
        r.detail,
      ]),
    ),
    b.audit.skipped.length === 0
      ? ""
      : `Not audited: ${b.audit.skipped.map((s) => `${s.column} (${s.reason})`).join(", ")}.`,
  ];
  return `${parts.filter((p) => p !== "").join("\n\n")}\n`;
}

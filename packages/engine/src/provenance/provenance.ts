// The provenance record of a merge: its header (inputs, shift, mappings) and the run lines that say which
// input and original packet each output packet came from. Format: docs/formats.md, "Aggregation and provenance".

export const PROVENANCE_FORMAT = "tracemill-merge-provenance";
export const PROVENANCE_VERSION = 1;

/** One input of the merge as the provenance records it. */
export interface ProvenanceInput {
  /** 0 for the background, 1 for the attacks: the `input` of each run. */
  id: 0 | 1;
  role: "background" | "attacks";
  /** The file name as given (no directories), and its full content's SHA-256 in hex. */
  file: string;
  sha256: string;
  bytes: number;
  packets: number;
  /** Earliest and latest timestamps of the input as read (before any shift), ISO 8601 UTC with 9 decimals. */
  first: string | null;
  last: string | null;
  /** Packets whose timestamp is earlier than a packet before them in the file. */
  outOfOrderPackets: number;
  /** The largest such lateness, in nanoseconds (decimal string). */
  maxLatenessNs: string;
}

export interface ProvenanceHeader {
  format: typeof PROVENANCE_FORMAT;
  version: number;
  /** The merged capture's file name (no directories) and format. */
  output: { file: string; format: "pcap" | "pcapng" };
  inputs: [ProvenanceInput, ProvenanceInput];
  /** Nanoseconds added to every attack timestamp (decimal string, may be negative). */
  shiftNs: string;
  /** How the insertion point was chosen, and where the attack's first packet landed (ISO 8601 UTC). */
  insertion: { mode: "midpoint" | "at" | "at-time" | "sequential"; firstAttackPacketAt: string | null };
  /** Address rewrites applied to the attack packets (canonical text). */
  mappings: { from: string; to: string }[];
  /** Which input's packet comes first when timestamps are equal. */
  tieOrder: "background-first";
}

/** A run of consecutive output packets from one input with consecutive original indices. */
export interface ProvenanceRun {
  input: 0 | 1;
  /** Position (0-based) of the run's first packet in the merged capture. */
  outputStart: number;
  /** Position (0-based) of the run's first packet in its input file. */
  originalStart: number;
  count: number;
}

/** The last line: totals that prove the record is complete. */
export interface ProvenanceTrailer {
  end: true;
  packets: number;
  runs: number;
}

// The one shape every capability has, so the server's worker and the CLI run them the same way.

/** Progress as a capability reports it: a fraction of the work and a short stage text. */
export interface Progress {
  /** 0..100 */
  percent: number;
  /** Short text for the user, e.g. "reading capture", "running Suricata". */
  stage: string;
}

export type ProgressCallback = (progress: Progress) => void;

/** A file a capability wrote, named by role so clients can show the right icon. */
export interface OutputFile {
  /** File name inside the output directory (no directories). */
  name: string;
  /** What the file is: see docs/formats.md for the kinds. */
  kind: OutputKind;
}

export type OutputKind =
  | "features-csv"
  | "features-parquet"
  | "labelled-csv"
  | "labelled-parquet"
  | "classified-csv"
  | "classified-parquet"
  | "ipt-txt"
  | "images-zip"
  | "clean-pcap"
  | "attacks-pcap"
  | "alerts-u2"
  | "eve-json"
  | "merged-pcap"
  | "provenance-json"
  | "summary-json"
  | "dataset-split-parquet"
  | "dataset-json"
  | "dataset-card-md";

export interface CapabilityResult {
  outputs: OutputFile[];
  /** The run summary (also written as summary.json among the outputs). */
  summary: Record<string, unknown>;
}

export interface RunOptions {
  /** Directory the capability writes its outputs into; it exists and is empty. */
  outDir: string;
  onProgress?: ProgressCallback;
  /** Aborts the run; the capability removes partial outputs and rejects with an AbortError. */
  signal?: AbortSignal;
  /**
   * Bytes of finished rows (CSV rows, IPT lines) an output keeps in memory while they wait for an earlier session's
   * row; beyond it they go to a temporary file beside the output. Default 64 MiB (docs/features.md, "Memory").
   */
  rowMemoryBytes?: number;
  /**
   * SHA-256 (hex) of input files the caller already knows, by the path it gives the capability (e.g. taken when the
   * file was uploaded): recorded in the summary as given instead of hashing the file again.
   */
  inputHashes?: Readonly<Record<string, string>>;
}

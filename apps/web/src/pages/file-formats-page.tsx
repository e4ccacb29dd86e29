// File Formats: the file kinds Tracemill reads and writes, with the icon each has throughout the app.
import { FileIcon, type FileKind, fileKindTitle } from "../icons/file-icons.js";
import { usePageTitle } from "../layout/page-title.js";

export const documentedKinds: { kind: FileKind; text: string }[] = [
  { kind: "pcap", text: "Raw capture: pcap 2.4 (also read: pcapng, ERF, raw IP; optionally gzip-compressed)." },
  { kind: "csv", text: "CSV with the session features, one row per TCP or UDP session." },
  {
    kind: "parquet",
    text: "Parquet with the same rows as the features CSV, typed and compressed, for pandas, polars or DuckDB.",
  },
  { kind: "pcap-alerts", text: "Capture whose attacks the intrusion detection system (Suricata) identified." },
  { kind: "u2", text: "Unified2 alert file written by the intrusion detection system." },
  { kind: "pcap-clean", text: "Attack-free capture: the packets of sessions no alert touched." },
  { kind: "pcap-attack", text: "Capture of one specific attack, or of the attack samples of a capture." },
  { kind: "pcap-merged", text: "Aggregation of two captures: background traffic with attacks replayed into it." },
  { kind: "csv-binary", text: "Binary-labelled CSV: 1 attack, 0 normal." },
  { kind: "csv-class", text: "CSV classified with the intrusion detection system's classification scheme." },
  { kind: "txt-ipt", text: "TXT of inter-arrival (inter-packet) time series, one session per line." },
  { kind: "zip-images", text: "ZIP of grayscale images, each n × 280 pixels." },
  { kind: "pcap-bom", text: "Capture with a byte-order mark (big- or little-endian header)." },
  { kind: "json", text: "JSON: EVE alert logs, or a job's run summary." },
];

export function FileFormatsPage() {
  usePageTitle("File Formats");
  return (
    <section>
      <h1>File Formats</h1>
      <p className="lead">Every file kind has one icon, used on job cards, outputs and the upload forms.</p>
      <ul className="format-list" aria-label="File kinds">
        {documentedKinds.map(({ kind, text }) => (
          <li key={kind}>
            <FileIcon kind={kind} size={40} />
            <div>
              <strong>{fileKindTitle(kind)}</strong>
              <p>{text}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

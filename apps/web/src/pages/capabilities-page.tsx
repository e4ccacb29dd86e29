// Capability descriptions: what each of the seven capabilities reads, does and writes.
import { type Capability, capabilities } from "@tracemill/contracts";
import { Link } from "react-router";
import { CapabilityIcon, capabilityNames } from "../icons/capability-icons.js";
import { FileIcon, type FileKind } from "../icons/file-icons.js";
import { usePageTitle } from "../layout/page-title.js";
import { capabilityRoutes } from "./capability-routes.js";

const descriptions: Record<Capability, { text: string; reads: FileKind[]; writes: FileKind[] }> = {
  extract: {
    text: "Groups packets into bidirectional TCP and UDP sessions over IPv4 and IPv6 and computes the session features (see Feature Set) for each, one CSV row per session (or a Parquet file of the same rows).",
    reads: ["pcap"],
    writes: ["csv", "parquet"],
  },
  sanitize: {
    text: "Runs Suricata with a chosen ruleset over the capture and splits it: the sessions no alert touched form an attack-free capture, the others a capture of attack samples; the alerts are kept as unified2 and EVE logs.",
    reads: ["pcap"],
    writes: ["pcap-clean", "pcap-attack", "u2", "json"],
  },
  merge: {
    text: "Replays one attack capture into one attack-free background capture at a chosen point (by default the middle), shifting the attack's timestamps and keeping packet metadata, so the mix looks like one recording.",
    reads: ["pcap-clean", "pcap-attack"],
    writes: ["pcap-merged"],
  },
  label: {
    text: "Extracts the session features and labels every session. Binary: 1 when the session also appears in a capture of the attacks, else 0. Multi-class: the class of the IDS alert (unified2 or EVE) that matches the session, using the classification file's 26 attack categories.",
    reads: ["pcap", "pcap-attack", "u2"],
    writes: ["csv-binary", "csv-class"],
  },
  ipt: {
    text: "Writes, for each session, the series of times between its consecutive packets as one line of a text file, next to the session features CSV.",
    reads: ["pcap"],
    writes: ["txt-ipt", "csv"],
  },
  images: {
    text: "Draws the first bytes of each session's packets as rows of grayscale pixels, a chosen number of sessions per image (n × 280 pixels), zipped, next to the session features CSV.",
    reads: ["pcap"],
    writes: ["zip-images", "csv"],
  },
  dataset: {
    text: "Builds a dataset from several captures in one run: the session features of the chosen sets, labels from attack captures, IDS alerts and a schedule of the attacks (each row saying which source labelled it), leakage-free train and test splits (by time, host, campaign or stratified), a leakage audit flagging the columns that alone separate the classes, and the dataset's card to rebuild it byte for byte.",
    reads: ["pcap", "pcap-attack", "u2"],
    writes: ["parquet", "json"],
  },
};

/** "a Feature Extraction", "an Automated Traffic Labeling": every capability name is read as it is spelled. */
function withArticle(name: string): string {
  return `${/^[aeiou]/i.test(name) ? "an" : "a"} ${name}`;
}

export function CapabilitiesPage() {
  usePageTitle("Capabilities Descriptions");
  return (
    <section>
      <h1>Capabilities Descriptions</h1>
      <div className="capability-list">
        {capabilities.map((capability) => {
          const d = descriptions[capability];
          return (
            <article key={capability} className="capability-card">
              <h2>
                <CapabilityIcon capability={capability} /> {capabilityNames[capability]}
              </h2>
              <p>{d.text}</p>
              <p className="io">
                Reads{" "}
                {d.reads.map((k) => (
                  <FileIcon key={k} kind={k} size={24} />
                ))}{" "}
                · writes{" "}
                {d.writes.map((k) => (
                  <FileIcon key={k} kind={k} size={24} />
                ))}
              </p>
              <Link to={capabilityRoutes[capability]}>Start {withArticle(capabilityNames[capability])} job</Link>
            </article>
          );
        })}
      </div>
    </section>
  );
}

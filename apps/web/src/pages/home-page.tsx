// Home: what Tracemill is, a platform overview with see more / see less, and the way into each capability.
import { capabilities } from "@tracemill/contracts/names";
import { useState } from "react";
import { Link } from "react-router";
import { CapabilityIcon, capabilityNames } from "../icons/capability-icons.js";
import { usePageTitle } from "../layout/page-title.js";
import { capabilityRoutes } from "./capability-routes.js";

export function HomePage() {
  usePageTitle();
  const [more, setMore] = useState(false);
  return (
    <section>
      <h1>Tracemill</h1>
      <p className="lead">
        Turn packet captures into machine-learning datasets for network intrusion detection research: session features,
        attack-free and attack-only captures, controlled mixes, labels, inter-packet time series and grayscale images.
      </p>
      <div className="overview">
        <p>
          Upload a capture (pcap, pcapng, ERF or raw IP), choose a capability and Tracemill runs the job on the server.
          You may close the browser after the upload: the job keeps running and its outputs wait under My Jobs.
        </p>
        {more && (
          <p id="overview-more">
            Every output is documented: each CSV column has a written definition (see Feature Set), each file kind has
            an icon (see File Formats), and jobs record their parameters, the hashes of their inputs and their timings,
            so a dataset can be rebuilt and cited. Jobs can be shared with other users as read-only public datasets.
          </p>
        )}
        <button type="button" className="link-button" aria-expanded={more} onClick={() => setMore((m) => !m)}>
          {more ? "See less" : "See more"}
        </button>
      </div>
      <ul className="capability-tiles">
        {capabilities.map((capability) => (
          <li key={capability}>
            <Link to={capabilityRoutes[capability]}>
              <CapabilityIcon capability={capability} size={40} />
              <span>{capabilityNames[capability]}</span>
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}

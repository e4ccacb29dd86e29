// About / Contact: the purpose, the disclaimer (SPEC §1) and how to reach the developers.
import { CodeHostIcon } from "../icons/capability-icons.js";
import { usePageTitle } from "../layout/page-title.js";

export const REPOSITORY_URL = "https://github.com/tracemill/tracemill";

export function AboutPage() {
  usePageTitle("About / Contact");
  return (
    <section className="prose">
      <h1>About / Contact</h1>
      <h2>Purpose</h2>
      <p>
        Tracemill helps researchers and network-security professionals build and evaluate machine-learning network
        intrusion detection systems. It turns packet captures into session-level datasets with documented features,
        sanitizes and mixes traffic in a controlled way, and labels sessions, all on a lab's own server.
      </p>
      <h2>Disclaimer</h2>
      <p className="disclaimer">
        Tracemill is meant only for research and education. Malicious use is prohibited. The software is provided as is,
        without warranty of any kind, and you are fully responsible for how you use it and for the traffic you process.
      </p>
      <h2>Contact</h2>
      <p>
        Questions, bug reports and contributions are welcome on the project's code-hosting page:{" "}
        <a href={REPOSITORY_URL} className="with-icon">
          <CodeHostIcon /> tracemill/tracemill
        </a>
      </p>
    </section>
  );
}

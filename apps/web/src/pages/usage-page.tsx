// The usage guide: the interface, the account, what a job is, the files, and the steps of each capability.
import { Link } from "react-router";
import { usePageTitle } from "../layout/page-title.js";

export function UsagePage() {
  usePageTitle("Capability Usage");
  return (
    <section className="prose">
      <h1>Capability Usage</h1>
      <h2>The interface</h2>
      <p>
        The side menu (collapse it with the arrow) leads to your jobs, the shared jobs, the seven capabilities and the
        resources. The moon button in the top bar switches between light and dark themes; your choice is remembered.
      </p>
      <h2>Your account</h2>
      <p>
        An account is needed to create jobs: <Link to="/ui/register">register</Link> with a name, an email and a
        password of at least 8 characters, then <Link to="/ui/login">sign in</Link>.
      </p>
      <h2>What a job is</h2>
      <p>
        A job applies one capability to the files you upload. It runs on the server in the background, so you may close
        the browser after the upload. My Jobs shows each job's status and progress; when it succeeds, download each
        output or all of them as a zip. A job is private unless you make it public; public jobs appear under Shared Jobs
        for every user, read-only.
      </p>
      <h2>Supported files</h2>
      <p>
        Captures in pcap, pcapng, ERF and raw IP, with the extensions .pcap, .cap, .dmp, .pcapng and .erf, optionally
        gzip-compressed (.gz). Labelling also reads unified2 and EVE alert files. Files are checked in the browser
        before they are uploaded. An output of an earlier job can be used instead of a new upload.
      </p>
      <h2>Step by step</h2>
      <ol>
        <li>
          <strong>Feature Extraction</strong>: give a title and a description, choose the capture, Next, then Create
          job. The advanced parameters (idle and active timeouts, packet length) have sensible defaults.
        </li>
        <li>
          <strong>Traffic Sanitization</strong>: step 1 as above; then choose the ruleset. You get an attack-free
          capture, a capture of the attack samples and the alerts.
        </li>
        <li>
          <strong>Controlled Traffic Aggregation</strong>: step 1 with the background capture (it should be
          attack-free); then the attack capture and, if you wish, the insertion point in seconds.
        </li>
        <li>
          <strong>Automated Traffic Labeling</strong>: step 1 with the capture to label (it should hold normal and
          attack sessions); then binary (a capture of the attacks) or multi-class (a unified2 or EVE alert file and
          optionally a classification file).
        </li>
        <li>
          <strong>Time Series Generator (IPT)</strong>: step 1; then choose signed or unsigned times.
        </li>
        <li>
          <strong>Grayscale Image Generator</strong>: step 1; then the number of sessions per image.
        </li>
        <li>
          <strong>Dataset Builder</strong>: step 1 with the captures (add as many as the dataset spans); then the labels
          (attack captures with their class, alert files, a schedule of the attacks with its time zone), the feature
          sets, and the split and the leakage audit. The job's page shows the dataset's card, its classes per split, the
          audit's table and the split files to download.
        </li>
      </ol>
    </section>
  );
}

// Names of a combined job's per-capture outputs: the part's number, the capture's name without its extensions, the
// output's own name ("02-tuesday.features.csv"). Numbered so that two captures of the same name stay apart and the
// files sort in the order the captures were given.

/** Extensions a capture's name loses in its parts' file names. */
const CAPTURE_EXTENSIONS = /(\.(pcap|pcapng|cap|erf|dmp))?(\.(gz|gzip))?$/i;
const MAX_STEM = 80;

export function partFileName(index: number, count: number, capture: string, output: string): string {
  const number = String(index + 1).padStart(Math.max(2, String(count).length), "0");
  const stem =
    capture
      .replace(CAPTURE_EXTENSIONS, "")
      .replace(/[^A-Za-z0-9._-]/g, "_")
      .replace(/^\.+/, "")
      .slice(0, MAX_STEM) || "capture";
  return `${number}-${stem}.${output}`;
}

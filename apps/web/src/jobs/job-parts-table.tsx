// The captures of a job over several captures: each ran as a part of its own; this says how far each is, and why one
// failed.
import type { JobPart } from "@tracemill/contracts";
import { StatusIcon, statusLabel } from "../icons/capability-icons.js";

export function JobPartsTable({ parts }: { parts: readonly JobPart[] }) {
  const done = parts.filter((part) => part.status === "succeeded").length;
  return (
    <>
      <h2>Captures</h2>
      <p>
        {done} of {parts.length} captures done. Each capture runs as a part of its own, on whichever worker is free; the
        outputs join their rows in this order.
      </p>
      <table className="wide">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Capture</th>
            <th scope="col">Status</th>
            <th scope="col">Progress</th>
          </tr>
        </thead>
        <tbody>
          {parts.map((part) => (
            <tr key={part.index}>
              <td>{part.index + 1}</td>
              <td>{part.capture}</td>
              <td>
                <StatusIcon status={part.status} size={16} /> {statusLabel(part.status)}
              </td>
              <td>
                {part.status === "running" ? `${Math.round(part.progress.percent)} % ${part.progress.stage}` : ""}
                {part.error && <span className="job-error">{part.error}</span>}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

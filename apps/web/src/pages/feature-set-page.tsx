// Feature Set: every CSV column with its definition, and how a session is defined.
import { featureColumns } from "../data/feature-columns.js";

export function FeatureSetPage() {
  return (
    <section>
      <h1>Feature Set</h1>
      <p className="lead">
        {featureColumns.length} session-level features computed from packet captures. A session is identified by source
        IP, destination IP, source port, destination port and protocol; TCP and UDP over IPv4 and IPv6 are covered, and
        many features are computed per direction: forward (f) and backward (b).
      </p>
      <table className="wide">
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Column</th>
            <th scope="col">Definition</th>
            <th scope="col">Unit</th>
          </tr>
        </thead>
        <tbody>
          {featureColumns.map((column, i) => (
            <tr key={column.name}>
              <td>{i + 1}</td>
              <td>
                <code>{column.name}</code>
              </td>
              <td>{column.definition}</td>
              <td>{column.unit}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

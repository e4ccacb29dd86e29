// Feature Set: how a session is defined, its key, and every feature set the server offers with its columns (types
// from the server, definitions where this app knows them: data/feature-columns.ts).
import type { FeatureSetInfo } from "@tracemill/contracts";
import { useId } from "react";
import { messagesOf } from "../api/client.js";
import { useFeatureSets } from "../api/feature-sets.js";
import { type ColumnType, definitionsBySet, sessionKeyColumns } from "../data/feature-columns.js";
import { ErrorBanners } from "../forms/fields.js";
import { usePageTitle } from "../layout/page-title.js";

interface ShownColumn {
  name: string;
  type: ColumnType;
  definition?: string;
  unit?: string;
}

export function FeatureSetPage() {
  usePageTitle("Feature Set");
  const sets = useFeatureSets();
  return (
    <section>
      <h1>Feature Set</h1>
      <p className="lead">
        One CSV row per session. A session is identified by source IP, destination IP, source port, destination port and
        protocol; TCP and UDP over IPv4 and IPv6 are covered. Every row starts with the session key, then carries the
        columns of the feature sets its job chose. Several sets can be chosen per job (Feature Extraction, Labelling,
        IPT and Images; <code>--features</code> on the command line): they are computed in one pass over the same
        sessions and share one row, each set's columns after the previous set's, in the order listed here. The # is a
        column's place in the row when its set is the first chosen.
      </p>
      <ColumnsSection
        title="Session key"
        description="The first columns of every row, whichever sets are chosen."
        columns={sessionKeyColumns}
        first={1}
      />
      <ErrorBanners messages={sets.error ? messagesOf(sets.error) : []} />
      {!sets.data && !sets.error && <p aria-busy="true">Loading the feature sets…</p>}
      {sets.data?.map((set) => (
        <ColumnsSection
          key={set.name}
          title={set.name}
          description={set.description}
          note={aboutSet(set)}
          columns={withDefinitions(set)}
          first={sessionKeyColumns.length + 1}
        />
      ))}
    </section>
  );
}

/** The set's columns with this app's definitions where the names match. */
function withDefinitions(set: FeatureSetInfo): ShownColumn[] {
  const known = new Map((definitionsBySet[set.name] ?? []).map((column) => [column.name, column]));
  return set.columns.map((column) => ({ ...known.get(column.name), ...column }));
}

function aboutSet(set: FeatureSetInfo): string {
  const count = `${set.columns.length} column${set.columns.length === 1 ? "" : "s"}`;
  const { idleTimeout, activeTimeout } = set.defaults;
  const own = [
    idleTimeout !== undefined && `idle ${idleTimeout} s`,
    activeTimeout !== undefined && `active ${activeTimeout} s`,
  ].filter(Boolean);
  return own.length > 0 ? `${count}. Chosen alone, it brings its own timeouts: ${own.join(", ")}.` : `${count}.`;
}

function ColumnsSection(props: {
  title: string;
  description: string;
  note?: string;
  columns: ShownColumn[];
  first: number;
}) {
  const id = useId();
  const defined = props.columns.some((column) => column.definition);
  return (
    <section aria-labelledby={id}>
      <h2 id={id}>{props.title}</h2>
      <p>
        {props.description}
        {props.note && (
          <>
            <br />
            <small className="hint">{props.note}</small>
          </>
        )}
      </p>
      <div className="scroll-x">
        <table className={defined ? "wide feature-columns" : "feature-columns"} aria-labelledby={id}>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">Column</th>
              <th scope="col">Type</th>
              {defined && <th scope="col">Definition</th>}
              {defined && <th scope="col">Unit</th>}
            </tr>
          </thead>
          <tbody>
            {props.columns.map((column, i) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a set may repeat a name, as CICFlowMeter's columns do
              <tr key={i}>
                <td className="nowrap index">{props.first + i}</td>
                <td className="column-name">
                  <code>{column.name}</code>
                </td>
                <td className="nowrap">{column.type}</td>
                {defined && <td>{column.definition}</td>}
                {defined && <td>{column.unit}</td>}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

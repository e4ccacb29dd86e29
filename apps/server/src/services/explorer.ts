// The feature explorer: a readable job's output tables (CSV, Parquet), their columns, and any column over every row,
// answered from a cache in the job's directory (engine/explore) that the first request builds and that goes with
// the job. Who may read is the downloads' rule (jobs.output): the owner, or anyone for a public job; 404 otherwise.
import path from "node:path";
import { type ColumnSummary, parseColumnQuery, splitColumns, type TableColumns } from "@tracemill/contracts";
import { type ExploredTable, exploreColumn, openExploredTable } from "@tracemill/engine";
import type { Storage } from "../storage/storage.js";
import type { CurrentUser } from "./accounts.js";
import { answered, HttpError, notFound } from "./http-error.js";
import type { JobsService } from "./jobs.js";

/** Outputs the explorer reads, by name (the engine tells CSV from Parquet by the file's own bytes). */
const TABLE_NAME = /\.(csv|parquet)$/i;
/** Tables kept open (their description; a Parquet file's reader): the most recently used ones. */
const OPEN_TABLES = 16;

export function explorerService(jobs: JobsService, store: Storage) {
  const open = new Map<string, Promise<ExploredTable>>();
  // One table opened at a time: the first opening of a CSV reads it whole, and several at once would share the
  // server's cores and disk with its other requests for no sooner answer.
  let opening: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(task: () => Promise<T>): Promise<T> => {
    const run = opening.then(task, task);
    opening = run.catch(() => undefined);
    return run;
  };

  async function table(user: CurrentUser | null, id: string, name: string) {
    const output = await jobs.output(user, id, name);
    if (!TABLE_NAME.test(output.name)) {
      throw new HttpError(400, [`${output.name} is not a table: the explorer reads CSV and Parquet outputs`]);
    }
    const key = `${output.job.id}/${output.name}`;
    let table = open.get(key);
    // Map order is the order of use: the first key is the least recently used.
    if (table) open.delete(key);
    else {
      const cacheDir = path.join(store.cacheDir(output.job.id), `${output.name}.explore`);
      table = oneAtATime(() => openExploredTable(output.path, cacheDir, output.name));
      table.catch(() => open.delete(key));
    }
    open.set(key, table);
    for (const stale of open.keys()) {
      if (open.size <= OPEN_TABLES) break;
      open.delete(stale);
    }
    return { name: output.name, table: await answered(table) };
  }

  return {
    async columns(user: CurrentUser | null, id: string, name: string): Promise<TableColumns> {
      const { name: output, table: explored } = await table(user, id, name);
      const { format, rows, columns, problems } = explored.info;
      const splitBy = splitColumns.filter((split) => columns.some((column) => column.name === split));
      return { output, format, rows, columns, splitBy, problems };
    },

    async column(
      user: CurrentUser | null,
      id: string,
      name: string,
      column: string,
      query: unknown,
    ): Promise<ColumnSummary> {
      const parsed = parseColumnQuery(query);
      if ("messages" in parsed) throw new HttpError(400, parsed.messages);
      const { name: output, table: explored } = await table(user, id, name);
      const { bins, scale, by } = parsed.query;
      const has = (wanted: string) => explored.info.columns.some((c) => c.name === wanted);
      if (!has(column)) throw new HttpError(400, [`Unknown column "${column}": ${output} has no column of that name`]);
      if (by !== undefined && !has(by)) {
        throw new HttpError(400, [`Invalid query parameter by: ${output} has no ${by} column to split by`]);
      }
      const described = await answered(exploreColumn(explored, column, { bins, scale, by }));
      if (described === null) throw notFound();
      return { output, column, ...described };
    },
  };
}

export type ExplorerService = ReturnType<typeof explorerService>;

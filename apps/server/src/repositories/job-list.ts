// One page of a job list (an owner's jobs, or the public ones), searched, filtered, sorted and counted in SQL, so a
// list of thousands of jobs costs one page's rows. The same statements on SQLite and PostgreSQL but for the runtime.
import {
  type Capability,
  capabilities,
  capabilityNames,
  type JobOutcome,
  type JobSortKey,
  type SortOrder,
} from "@tracemill/contracts";
import { type Expression, type ExpressionBuilder, type Kysely, type SqlBool, sql } from "kysely";
import type { Db } from "../db/connect.js";
import { isPostgres } from "../db/dialect.js";
import type { Database } from "../db/schema.js";
import type { JobRow } from "./jobs.js";

/** Whose jobs: one owner's, or everyone's public ones. Parts of a job are never listed on their own. */
export type JobListScope = { ownerId: string } | { publicOnly: true };

export interface JobListFilter {
  /** Matched, case aside, anywhere in the title or an input's name; `capabilities` are those the words name. */
  search?: { text: string; capabilities: Capability[] };
  capability?: Capability;
  status?: JobOutcome;
  sort: JobSortKey;
  order: SortOrder;
  limit: number;
  offset: number;
}

type Jobs = ExpressionBuilder<Database, "jobs">;

/** `%text%` for LIKE, with LIKE's own characters taken literally (escaped with "!"). */
const containing = (text: string) => `%${text.toLowerCase().replace(/[!%_]/g, (c) => `!${c}`)}%`;
const like = (column: Expression<string>, pattern: string) => sql<SqlBool>`lower(${column}) like ${pattern} escape '!'`;

/** Capabilities in the order of the names people see (the web app shows names, not ids). */
const byName = [...capabilities].sort((a, b) => capabilityNames[a].localeCompare(capabilityNames[b]));
const outcomeRank: Record<JobOutcome, number> = {
  queued: 0,
  running: 1,
  succeeded: 2,
  warning: 3,
  failed: 4,
  cancelled: 5,
};

function sortExpression(db: Db, eb: Jobs, sort: JobSortKey): Expression<unknown> {
  switch (sort) {
    case "title":
      return sql`lower(${eb.ref("jobs.title")})`;
    case "capability":
      return sql`case ${eb.ref("jobs.capability")} ${sql.join(
        byName.map((c, i) => sql`when ${sql.lit(c)} then ${sql.lit(i)}`),
        sql` `,
      )} end`;
    case "status":
      return sql`case
        when ${eb.ref("jobs.status")} = 'succeeded' and ${eb.ref("jobs.warning_count")} > 0 then ${sql.lit(outcomeRank.warning)}
        ${sql.join(
          (["queued", "running", "succeeded", "failed", "cancelled"] as const).map(
            (s) => sql`when ${eb.ref("jobs.status")} = ${sql.lit(s)} then ${sql.lit(outcomeRank[s])}`,
          ),
          sql` `,
        )} end`;
    case "sessions":
      return eb.ref("jobs.sessions");
    case "size":
      return eb.ref("jobs.output_bytes");
    case "created":
      return eb.ref("jobs.created_at");
    case "runtime":
      // Seconds between the stored start and end (null until a job ends): ISO texts on both databases.
      return isPostgres(db as unknown as Kysely<unknown>)
        ? sql`extract(epoch from (${eb.ref("jobs.finished_at")}::timestamptz - ${eb.ref("jobs.started_at")}::timestamptz))`
        : sql`(julianday(${eb.ref("jobs.finished_at")}) - julianday(${eb.ref("jobs.started_at")})) * 86400`;
  }
}

function matches(eb: Jobs, scope: JobListScope, filter: JobListFilter): Expression<SqlBool> {
  const conditions: Expression<SqlBool>[] = [eb("jobs.parent_id", "is", null)];
  conditions.push("ownerId" in scope ? eb("jobs.owner_id", "=", scope.ownerId) : eb("jobs.public", "=", 1));
  if (filter.capability) conditions.push(eb("jobs.capability", "=", filter.capability));
  if (filter.status === "warning" || filter.status === "succeeded") {
    conditions.push(eb("jobs.status", "=", "succeeded"));
    conditions.push(eb("jobs.warning_count", filter.status === "warning" ? ">" : "=", 0));
  } else if (filter.status) {
    conditions.push(eb("jobs.status", "=", filter.status));
  }
  if (filter.search) {
    const pattern = containing(filter.search.text);
    const named = filter.search.capabilities;
    conditions.push(
      eb.or([
        like(eb.ref("jobs.title"), pattern),
        eb.exists(
          eb
            .selectFrom("job_inputs")
            .innerJoin("files", "files.id", "job_inputs.file_id")
            .select(sql`1`.as("one"))
            .whereRef("job_inputs.job_id", "=", "jobs.id")
            .where((inner) => like(inner.ref("files.name"), pattern)),
        ),
        ...(named.length > 0 ? [eb("jobs.capability", "in", named)] : []),
      ]),
    );
  }
  return eb.and(conditions);
}

export function jobListRepository(db: Db) {
  return {
    /**
     * The page's rows in order (ties broken newest first, then by id, so pages never overlap) and the total. The sort
     * picks ids alone and the rows are read after: carried through the sort, every row's summary made a late page
     * of a sort by size cost many times the first.
     */
    async page(scope: JobListScope, filter: JobListFilter): Promise<{ rows: JobRow[]; total: number }> {
      const [picked, count] = await Promise.all([
        db
          .selectFrom("jobs")
          .select("jobs.id")
          .where((eb) => matches(eb, scope, filter))
          .orderBy(
            (eb) => sortExpression(db, eb, filter.sort),
            (ob) => (filter.order === "asc" ? ob.asc() : ob.desc()).nullsLast(),
          )
          .orderBy("jobs.created_at", "desc")
          .orderBy("jobs.id", "desc")
          .limit(filter.limit)
          .offset(filter.offset)
          .execute(),
        db
          .selectFrom("jobs")
          .select((eb) => eb.fn.countAll<number>().as("total"))
          .where((eb) => matches(eb, scope, filter))
          .executeTakeFirstOrThrow(),
      ]);
      const ids = picked.map((row) => row.id);
      const rows =
        ids.length === 0
          ? []
          : await db
              .selectFrom("jobs")
              .innerJoin("users", "users.id", "jobs.owner_id")
              .selectAll("jobs")
              .select("users.user_name as owner_name")
              .where("jobs.id", "in", ids)
              .execute();
      const byId = new Map(rows.map((row) => [row.id, row]));
      return { rows: ids.flatMap((id) => byId.get(id) ?? []), total: Number(count.total) };
    },
  };
}

export type JobListRepository = ReturnType<typeof jobListRepository>;

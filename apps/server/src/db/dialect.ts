// Which database a Kysely instance talks to, for the few places where SQLite and PostgreSQL must differ.
import { type Kysely, PostgresAdapter } from "kysely";

/** True on PostgreSQL; false on SQLite. Works on transactions and single connections too (they share the adapter). */
export function isPostgres(db: Kysely<unknown>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** A `postgres://` or `postgresql://` URL selects PostgreSQL; anything else names a SQLite file. */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

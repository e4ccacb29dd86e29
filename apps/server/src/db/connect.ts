// Opens the database (a SQLite file by default, PostgreSQL for a `postgres://` URL) and brings its schema up to date.
import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, PostgresDialect, SqliteDialect, type SqliteDatabase as SqliteDialectDatabase } from "kysely";
import pg from "pg";
import { isPostgresUrl } from "./dialect.js";
import { migrateToLatest } from "./migrations.js";
import type { Database } from "./schema.js";

export type Db = Kysely<Database>;

/** Statements kept for reuse; past this many distinct queries (lists of ids vary in length) the cache starts over. */
const STATEMENT_CACHE_SIZE = 500;

/** What a ROLLBACK does when SQLite has already rolled the transaction back: nothing. */
const noTransactionToRollBack = {
  reader: false,
  run: () => ({ changes: 0, lastInsertRowid: 0 }),
} as unknown as SqliteDatabase.Statement;

/**
 * Kysely prepares every query anew, which costs more than running it for the small queries on the request path
 * (session, job list, one job's progress); the same SQL text reuses its prepared statement instead.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): SqliteDialectDatabase {
  const statements = new Map<string, SqliteDatabase.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(sql: string) {
      // SQLite ends a transaction by itself on some errors (SQLITE_FULL: the disk is full); Kysely's ROLLBACK that
      // follows would then fail with "no transaction is active" and hide the error that says what happened.
      if (sql === "rollback" && !sqlite.inTransaction) return noTransactionToRollBack;
      let statement = statements.get(sql);
      if (!statement) {
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.clear();
        statement = sqlite.prepare(sql);
        statements.set(sql, statement);
      }
      return statement;
    },
  };
}

/** PostgreSQL's type ids whose text pg would hand over as a string: int8 (bigint) and count(*). */
const INT8 = 20;

/**
 * Bigint columns (file and output sizes) come back as numbers, as they do from SQLite: sizes stay far below 2^53, and
 * one parser here spares every caller a conversion. Set per pool, so other users of pg in the process are unaffected.
 */
const pgTypes = {
  getTypeParser: ((id: number, format?: "text" | "binary") =>
    id === INT8
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(id, format)) as pg.CustomTypesConfig["getTypeParser"],
};

/** The URL each PostgreSQL database was opened with, for connections of its own (LISTEN: queue-signals.ts). */
const postgresUrls = new WeakMap<Db, string>();

/** The URL `db` was opened with when it is PostgreSQL; undefined for SQLite. */
export function postgresUrlOf(db: Db): string | undefined {
  return postgresUrls.get(db);
}

function openPostgres(url: string): Db {
  const pool = new pg.Pool({ connectionString: url, types: pgTypes });
  // An idle connection the server dropped (a restart, a network cut) is replaced on the next query, which reports the
  // error if the server is still away; unhandled, this event would end the process.
  pool.on("error", () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  postgresUrls.set(db, url);
  return db;
}

/** The PostgreSQL database named cannot be used (unreachable, login refused, missing): the message says which and why. */
export class DatabaseError extends Error {}

/** Opens `target`: a `postgres://` / `postgresql://` URL, or else the path of a SQLite file (created if missing). */
export async function openDatabase(target: string): Promise<Db> {
  const postgres = isPostgresUrl(target);
  const db = postgres ? openPostgres(target) : openSqlite(target);
  try {
    await migrateToLatest(db as unknown as Kysely<unknown>);
  } catch (error) {
    await db.destroy().catch(() => {});
    if (!postgres) throw error;
    // An unreachable server, a refused login or a missing database is the URL's fault or the server's, said in one line.
    const reason = error instanceof Error ? error.message : String(error);
    throw new DatabaseError(`cannot use the database ${withoutPassword(target)}: ${reason}`);
  }
  return db;
}

/** The URL as it may be shown (messages, logs): the password replaced by `***`. */
function withoutPassword(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = "***";
    return parsed.toString();
  } catch {
    return "the PostgreSQL URL given";
  }
}

function openSqlite(file: string): Db {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  // WAL lets readers (lists, polling) proceed while a worker's progress is written.
  sqlite.pragma("journal_mode = WAL");
  // With WAL, NORMAL syncs at checkpoints, not at every commit: progress updates no longer wait on the disk
  // (a crash of the process loses nothing; a power cut may lose the last commits, never the database).
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
}

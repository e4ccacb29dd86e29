// Opens the database (SQLite file by default) and brings its schema up to date.
import fs from "node:fs";
import path from "node:path";
import SqliteDatabase from "better-sqlite3";
import { Kysely, SqliteDialect, type SqliteDatabase as SqliteDialectDatabase } from "kysely";
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

export async function openDatabase(file: string): Promise<Db> {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const sqlite = new SqliteDatabase(file);
  // WAL lets readers (lists, polling) proceed while a worker's progress is written.
  sqlite.pragma("journal_mode = WAL");
  // With WAL, NORMAL syncs at checkpoints, not at every commit: progress updates no longer wait on the disk
  // (a crash of the process loses nothing; a power cut may lose the last commits, never the database).
  sqlite.pragma("synchronous = NORMAL");
  sqlite.pragma("foreign_keys = ON");
  sqlite.pragma("busy_timeout = 5000");
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
  await migrateToLatest(db as unknown as Kysely<unknown>);
  return db;
}

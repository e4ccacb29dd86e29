// Users and their sessions in the database.
import type { Db } from "../db/connect.js";
import type { SessionsTable, UsersTable } from "../db/schema.js";

export type UserRow = UsersTable;

export function usersRepository(db: Db) {
  return {
    async insert(user: UserRow): Promise<boolean> {
      const result = await db
        .insertInto("users")
        .values(user)
        .onConflict((oc) => oc.column("email_key").doNothing())
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
    },
    byEmailKey: (emailKey: string) =>
      db.selectFrom("users").selectAll().where("email_key", "=", emailKey).executeTakeFirst(),
    byId: (id: string) => db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst(),
  };
}

export function sessionsRepository(db: Db) {
  return {
    async insert(session: SessionsTable): Promise<void> {
      await db.insertInto("sessions").values(session).execute();
    },
    /** The user of a live session, or undefined when it is unknown or expired. */
    userOf: (id: string, now: string) =>
      db
        .selectFrom("sessions")
        .innerJoin("users", "users.id", "sessions.user_id")
        .select(["users.id", "users.user_name", "users.email"])
        .where("sessions.id", "=", id)
        .where("sessions.expires_at", ">", now)
        .executeTakeFirst(),
    async remove(id: string): Promise<void> {
      await db.deleteFrom("sessions").where("id", "=", id).execute();
    },
    async removeExpired(now: string): Promise<void> {
      await db.deleteFrom("sessions").where("expires_at", "<=", now).execute();
    },
  };
}

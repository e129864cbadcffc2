import { type Insertable, type Selectable, type SqlBool, sql, type Updateable } from "kysely";
import { type SeenUsers, usersSeenIn } from "../access/index.js";
import type { Tx } from "../context.js";
import type { Db, UsersTable } from "../db/schema.js";
import { anyOf, containsText } from "../db/sql.js";
import { responseColumns } from "../http/date-fields.js";
import type { ListUsersQuery, User } from "./schema.js";

type Row = Selectable<UsersTable>;

const USER_FIELDS = [
  "id",
  "external_id",
  "name",
  "email",
  "role",
  "manager_id",
  "active",
  "payroll_id",
  "created_at",
  "updated_at",
] as const;

export function toUser(row: Row): User {
  return responseColumns(row, USER_FIELDS);
}

export async function insertUser(db: Db, row: Insertable<UsersTable>): Promise<User> {
  return toUser(await db.insertInto("users").values(row).returningAll().executeTakeFirstOrThrow());
}

export async function updateUser(db: Db, id: string, changes: Updateable<UsersTable>): Promise<User> {
  return toUser(
    await db.updateTable("users").set(changes).where("id", "=", id).returningAll().executeTakeFirstOrThrow(),
  );
}

export async function findUser(db: Db, id: string): Promise<User | undefined> {
  const row = await db.selectFrom("users").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toUser(row);
}

export async function lockUser(db: Tx, id: string): Promise<User | undefined> {
  const row = await db.selectFrom("users").selectAll().where("id", "=", id).forUpdate().executeTakeFirst();
  return row && toUser(row);
}

/** Ids among `ids` that exist, read without a lock. */
export async function existingUserIds(db: Db, ids: string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom("users").select("id").where(anyOf("id", ids)).execute();
  return new Set(rows.map((r) => r.id));
}

/** Locks the existing users among `ids` (FOR NO KEY UPDATE), in id order; returns their ids. */
export async function lockUserIds(tx: Tx, ids: string[]): Promise<Set<string>> {
  const sorted = [...new Set(ids)].sort();
  if (sorted.length === 0) return new Set();
  const rows = await tx
    .selectFrom("users")
    .select("id")
    .where(anyOf("id", sorted))
    .orderBy("id")
    .forNoKeyUpdate()
    .execute();
  return new Set(rows.map((r) => r.id));
}

/**
 * A page of the users `seen` holds, and how many there are, in one statement: the count and the page are
 * subqueries of it (a manager's subtree read once inside it), so a page past the end still has its total.
 */
export async function listUsers(db: Db, q: ListUsersQuery, seen: SeenUsers, limit: number, offset: number) {
  const scope = usersSeenIn(seen);
  let query = db.selectFrom("users");
  if (scope) query = query.where(scope.condition("id"));
  if (q.role) query = query.where("role", "=", q.role);
  if (q.active !== undefined) query = query.where("active", "=", q.active);
  if (q.manager_id) query = query.where("manager_id", "=", q.manager_id);
  if (q.email) query = query.where((eb) => eb(eb.fn("lower", ["email"]), "=", q.email!.toLowerCase()));
  if (q.q) query = query.where(containsText(["name", "email"], q.q));
  const page = query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset);
  const count = query.select((eb) => eb.fn.countAll<string>().as("total"));
  const { rows } = await sql<Partial<Row> & { total: string }>`${scope?.with ?? sql``}
    SELECT c.total, p.* FROM ${count} c LEFT JOIN LATERAL ${page} p ON true`.execute(db);
  const users = rows.filter((r) => r.id != null).map(({ total: _total, ...row }) => toUser(row as Row));
  return { rows: users, total: Number(rows[0]?.total ?? 0) };
}

/** The users with any of these ids, emails (compared case-insensitively), external ids or payroll ids. */
export async function findUsersNamed(
  db: Db,
  named: { ids: string[]; emails: string[]; externalIds: string[]; payrollIds: string[] },
): Promise<User[]> {
  const { ids, emails, externalIds, payrollIds } = named;
  if (ids.length + emails.length + externalIds.length + payrollIds.length === 0) return [];
  const lowered = [...new Set(emails.map((e) => e.toLowerCase()))];
  const rows = await db
    .selectFrom("users")
    .selectAll()
    .where((eb) =>
      eb.or([
        anyOf("id", ids),
        sql<SqlBool>`lower(email) = ANY(${lowered}::text[])`,
        anyOf("external_id", externalIds),
        anyOf("payroll_id", payrollIds),
      ]),
    )
    .execute();
  return rows.map(toUser);
}

/** Every user's manager (null: none), for checking a whole file's reporting lines for cycles at once. */
export async function managerLinks(db: Db): Promise<Map<string, string | null>> {
  const rows = await db.selectFrom("users").select(["id", "manager_id"]).execute();
  return new Map(rows.map((r) => [r.id, r.manager_id]));
}

/** The names of these users, by id (ids not found are left out). */
export async function namesOfUsers(db: Db, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.selectFrom("users").select(["id", "name"]).where(anyOf("id", ids)).execute();
  return new Map(rows.map((r) => [r.id, r.name]));
}

/** Whether any active user holds the admin role (the first run has none). */
export async function anyActiveAdmin(db: Db): Promise<boolean> {
  const row = await db
    .selectFrom("users")
    .select("id")
    .where("role", "=", "admin")
    .where("active", "=", true)
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

import { type RawBuilder, sql } from "kysely";
import type { Db } from "../db/schema.js";

/**
 * `WITH RECURSIVE <name>(id) AS (…)`: the manager and everyone below them. UNION (not UNION ALL) drops
 * rows already found, so a cycle in manager_id (the API refuses one, the table does not) ends instead of looping.
 */
export function subtreeWith(name: string, managerId: string): RawBuilder<unknown> {
  const tree = sql.id(name);
  return sql`WITH RECURSIVE ${tree}(id) AS (
      SELECT ${managerId}::text
      UNION
      SELECT u.id FROM users u JOIN ${tree} t ON u.manager_id = t.id
    )`;
}

/** The manager and everyone below them. */
export async function selectSubtree(db: Db, managerId: string): Promise<readonly string[]> {
  const { rows } = await sql<{ id: string }>`${subtreeWith("tree", managerId)} SELECT id FROM tree`.execute(db);
  return rows.map((r) => r.id);
}

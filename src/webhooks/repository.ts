import type { Insertable, Selectable, Updateable } from "kysely";
import type { Tx } from "../context.js";
import type { Db, WebhookSubscriptionsTable } from "../db/schema.js";
import { toIso } from "../http/date-fields.js";
import type { ListSubscriptionsQuery, WebhookSubscription } from "./schema.js";

type Row = Selectable<WebhookSubscriptionsTable>;

export interface SubscriptionRecord {
  subscription: WebhookSubscription;
  secretEncrypted: string;
}

function toSubscription(row: Row): WebhookSubscription {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    // Written only through the subscription bodies, whose schema admits catalogue names and `*` alone.
    events: row.events as WebhookSubscription["events"],
    status: row.status,
    disabled_reason: row.disabled_reason,
    secret_hint: row.secret_hint,
    previous_secret_expires_at: toIso(row.previous_secret_expires_at),
    created_at: toIso(row.created_at)!,
    updated_at: toIso(row.updated_at)!,
  };
}

export async function insertSubscription(
  db: Db,
  row: Insertable<WebhookSubscriptionsTable>,
): Promise<WebhookSubscription> {
  return toSubscription(
    await db.insertInto("webhook_subscriptions").values(row).returningAll().executeTakeFirstOrThrow(),
  );
}

export async function updateSubscription(
  db: Db,
  id: string,
  changes: Updateable<WebhookSubscriptionsTable>,
): Promise<WebhookSubscription> {
  return toSubscription(
    await db
      .updateTable("webhook_subscriptions")
      .set(changes)
      .where("id", "=", id)
      .returningAll()
      .executeTakeFirstOrThrow(),
  );
}

export async function findSubscription(db: Db, id: string): Promise<WebhookSubscription | undefined> {
  const row = await db.selectFrom("webhook_subscriptions").selectAll().where("id", "=", id).executeTakeFirst();
  return row && toSubscription(row);
}

/** Locks the row for a change in the caller's transaction; the encrypted secret comes along for rotation. */
export async function lockSubscription(db: Tx, id: string): Promise<SubscriptionRecord | undefined> {
  const row = await db
    .selectFrom("webhook_subscriptions")
    .selectAll()
    .where("id", "=", id)
    .forUpdate()
    .executeTakeFirst();
  return row && { subscription: toSubscription(row), secretEncrypted: row.secret_encrypted };
}

export async function deleteSubscription(db: Tx, id: string): Promise<void> {
  await db.deleteFrom("webhook_subscriptions").where("id", "=", id).execute();
}

export async function listSubscriptions(db: Db, q: ListSubscriptionsQuery, limit: number, offset: number) {
  let query = db.selectFrom("webhook_subscriptions");
  if (q.status) query = query.where("status", "=", q.status);
  const [rows, count] = await Promise.all([
    query.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).offset(offset).execute(),
    query.select((eb) => eb.fn.countAll<string>().as("n")).executeTakeFirstOrThrow(),
  ]);
  return { rows: rows.map(toSubscription), total: Number(count.n) };
}

import type { Ctx, Tx } from "../context.js";
import { newId } from "../ids.js";
import type { EventData, EventType } from "./catalogue.js";

/**
 * Writes the event to the outbox in the caller's transaction: it exists exactly when the change that
 * caused it committed, so a crash can neither lose it nor invent it. Delivery happens later, elsewhere.
 */
export async function emit(tx: Tx, ctx: Ctx, type: EventType, data: EventData): Promise<string> {
  const id = newId("evt", ctx.now.getTime());
  await tx
    .insertInto("events")
    .values({ id, type, data: JSON.stringify(data), created_at: ctx.now })
    .execute();
  return id;
}

import type { RawBuilder } from "kysely";
import type { Ctx, Tx } from "../context.js";
import { withRawJson } from "../db/json.js";
import { mapTurning } from "../event-loop.js";
import { newId } from "../ids.js";
import type { EventData, EventType } from "./catalogue.js";
import { eventsInsert, insertEvent, insertEventsJson } from "./repository.js";

/** An outbox row but its data. */
function eventRow(ctx: Ctx, type: EventType) {
  return { id: newId("evt", ctx.now.getTime()), type, created_at: ctx.now };
}

/**
 * Writes the event to the outbox in the caller's transaction: it exists exactly when the change that
 * caused it committed, so a crash can neither lose it nor invent it. Delivery happens later, elsewhere.
 */
export async function emit(tx: Tx, ctx: Ctx, type: EventType, data: EventData): Promise<string> {
  const row = eventRow(ctx, type);
  await insertEvent(tx, { ...row, data: JSON.stringify(data) });
  return row.id;
}

/** `emit` for many events, in one INSERT (bulk ingest and wide recalculations write thousands). */
export async function emitMany(tx: Tx, ctx: Ctx, events: { type: EventType; data: EventData }[]): Promise<void> {
  await emitManyJson(tx, ctx, await mapTurning(events, (e) => ({ type: e.type, dataJson: JSON.stringify(e.data) })));
}

/** `emitMany` with each event's data already JSON text (built around parts serialized once). */
export async function emitManyJson(tx: Tx, ctx: Ctx, events: { type: EventType; dataJson: string }[]): Promise<void> {
  const rows = await mapTurning(events, (e) => withRawJson(eventRow(ctx, e.type), "data", e.dataJson));
  await insertEventsJson(tx, rows);
}

/**
 * `emitMany` for `count` events of one type whose data PostgreSQL renders, as an INSERT for the caller's
 * statement: `source` selects their ord (1…count) and data. A payout run announces the thousands of deals
 * it pays without carrying them through JavaScript.
 */
export async function emitInsert(
  ctx: Ctx,
  type: EventType,
  source: RawBuilder<unknown>,
  count: number,
): Promise<RawBuilder<unknown>> {
  const ids = await mapTurning(new Array<undefined>(count).fill(undefined), () => newId("evt", ctx.now.getTime()));
  return eventsInsert({ type, created_at: ctx.now }, ids, source);
}

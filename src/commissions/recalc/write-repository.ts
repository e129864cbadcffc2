import { createHash } from "node:crypto";
import { sql } from "kysely";
import type { Tx } from "../../context.js";
import { jsonArray, withRawJson } from "../../db/json.js";
import { mapTurning, turnIfDue } from "../../event-loop.js";
import { newId } from "../../ids.js";
import { compareTexts, type Fixed } from "../../money/index.js";
import type { FxMissing } from "../engine/index.js";
import { chunks } from "./chunks.js";
import type { LineEvent } from "./line-events-repository.js";
import { TotalDeltas } from "./totals-repository.js";
import { type DesiredLine, type ExistingLine, lineKey } from "./types.js";

/** Which existing lines a recalculation may delete when it no longer wants them. */
export interface Ownership {
  /** `deal|user` credits re-matched: their SPIFF lines are all recomputed. */
  credits: Set<string>;
  /** `deal|user` credits with no plan in force now: their plan line goes. */
  noPlan: Set<string>;
  /** Deals whose data changed: lines of users they no longer credit go. */
  fullDeals: Set<string>;
  /** Deals whose override lines were all recomputed: those not wanted go (API.md §16). */
  overrideDeals: Set<string>;
}

export interface LineDiff {
  inserts: DesiredLine[];
  updates: { before: ExistingLine; after: DesiredLine }[];
  deletes: ExistingLine[];
  /**
   * Lines equal in every field but perhaps the explanation: updates only if its digest differs. Left
   * unsettled until needed (`settle`): a wide change whose certain part already exceeds the inline
   * limit writes only its primary deals' lines now, and hashing every other explanation would be waste.
   */
  unsure: { before: ExistingLine; after: DesiredLine }[];
}

/**
 * What a recalculation stores beside each explanation, so it never has to read explanations back to
 * know whether one changed. The engine builds explanations in a fixed key order, so equal content
 * gives equal text; a new engine version that orders keys differently only rewrites the line once.
 */
export function explanationDigest(explanationJson: string): string {
  return createHash("sha1").update(explanationJson).digest("base64url");
}

/** A wanted line's explanation as stored: serialized once, for its digest, its row and its event. */
interface StoredExplanation {
  json: string;
  digest: string;
}

const storedExplanations = new WeakMap<DesiredLine, StoredExplanation>();

/** Computed on first need: most lines a wide change computes are compared by amount, or never written. */
function storedExplanation(line: DesiredLine): StoredExplanation {
  let stored = storedExplanations.get(line);
  if (!stored) {
    const json = JSON.stringify(line.explanation);
    stored = { json, digest: explanationDigest(json) };
    storedExplanations.set(line, stored);
  }
  return stored;
}

/** Differs in a field other than the explanation. */
function differs(before: ExistingLine, after: DesiredLine): boolean {
  return (
    before.status !== "pending" ||
    // By value: the column keeps 3 decimals ("8.000") where a USD line is written "8.00" (API.md §15).
    compareTexts(before.amount, after.amount) !== 0 ||
    before.plan_id !== after.plan_id ||
    before.plan_version !== after.plan_version ||
    before.period !== after.period ||
    before.currency !== after.currency
  );
}

/** Moves the unsure lines of `keep`'s deals (all when omitted) whose explanation changed to the updates. */
export async function settle(diff: LineDiff, keep?: (dealId: string) => boolean): Promise<void> {
  const unsettled: LineDiff["unsure"] = [];
  for (const pair of diff.unsure) {
    if (keep && !keep(pair.before.deal_id)) unsettled.push(pair);
    else if (pair.before.explanation_digest !== storedExplanation(pair.after).digest) diff.updates.push(pair);
    await turnIfDue(); // hashing thousands of explanations is ~0.1 s of the main thread
  }
  diff.unsure = unsettled;
}

function owned(line: ExistingLine, own: Ownership): boolean {
  if (line.kind === "override") return own.overrideDeals.has(line.deal_id);
  const credit = `${line.deal_id}|${line.user_id}`;
  if (own.fullDeals.has(line.deal_id) && !own.credits.has(credit)) return true;
  if (line.kind === "spiff") return own.credits.has(credit);
  return own.noPlan.has(credit);
}

export async function diffLines(existing: ExistingLine[], desired: DesiredLine[], own: Ownership): Promise<LineDiff> {
  const byKey = new Map(existing.map((l) => [lineKey(l), l]));
  const wanted = new Set<string>();
  const diff: LineDiff = { inserts: [], updates: [], deletes: [], unsure: [] };
  for (const line of desired) {
    const key = lineKey(line);
    wanted.add(key);
    const before = byKey.get(key);
    if (!before) diff.inserts.push(line);
    else if (differs(before, line)) diff.updates.push({ before, after: line });
    else diff.unsure.push({ before, after: line });
    await turnIfDue();
  }
  for (const line of existing) {
    if (line.status === "pending" && !wanted.has(lineKey(line)) && owned(line, own)) diff.deletes.push(line);
    await turnIfDue();
  }
  return diff;
}

/** Lines the diff certainly writes (unsure ones not counted). */
export function diffSize(diff: LineDiff): number {
  return diff.inserts.length + diff.updates.length + diff.deletes.length;
}

/** A written line: its row id. */
type Written = DesiredLine & { id: string };

/** The line with its row id; its stored explanation (serialized once) carries over. */
function withId(line: DesiredLine, id: string): Written {
  const written = { ...line, id };
  const stored = storedExplanations.get(line);
  if (stored) storedExplanations.set(written, stored);
  return written;
}

/** One commission_lines row as jsonb_to_recordset reads it. */
function lineRowJson(line: Written): string {
  const stored = storedExplanation(line);
  const { explanation: _, ...fields } = line;
  return withRawJson({ ...fields, explanation_digest: stored.digest }, "explanation", stored.json);
}

async function insertLines(tx: Tx, now: Date, rows: Written[]): Promise<void> {
  for (const part of chunks(rows)) {
    await sql`
      INSERT INTO commission_lines
        (id, deal_id, user_id, plan_id, plan_version, spiff_id, kind, period, amount, currency, status, locked,
         explanation, explanation_digest, calculated_at, created_at)
      SELECT v.id, v.deal_id, v.user_id, v.plan_id, v.plan_version, v.spiff_id, v.kind, v.period, v.amount, v.currency,
             'pending', false, v.explanation, v.explanation_digest, ${now}::timestamptz, ${now}::timestamptz
      FROM jsonb_to_recordset(${jsonArray(await mapTurning(part, lineRowJson))}::jsonb) AS v(id text, deal_id text, user_id text,
        plan_id text, plan_version integer, spiff_id text, kind text, period text, amount numeric, currency text,
        explanation jsonb, explanation_digest text)`.execute(tx);
  }
}

/** Updates the unlocked lines among `rows`; returns the ids written (a line locked meanwhile is not). */
async function updateLines(tx: Tx, now: Date, rows: Written[]): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const part of chunks(rows)) {
    const written = await sql<{ id: string }>`
      UPDATE commission_lines AS l
      SET plan_id = v.plan_id, plan_version = v.plan_version, period = v.period, amount = v.amount,
          currency = v.currency, status = 'pending', explanation = v.explanation,
          explanation_digest = v.explanation_digest, calculated_at = ${now}
      FROM jsonb_to_recordset(${jsonArray(await mapTurning(part, lineRowJson))}::jsonb) AS v(id text, plan_id text,
        plan_version integer, period text, amount numeric, currency text, explanation jsonb, explanation_digest text)
      WHERE l.id = v.id AND NOT l.locked
      RETURNING l.id`.execute(tx);
    for (const r of written.rows) ids.add(r.id);
  }
  return ids;
}

/** Deletes the unlocked lines among these; returns what each deleted row counted in its deal's total. */
async function deleteLines(tx: Tx, lines: ExistingLine[]): Promise<{ deal_id: string; amount: string }[]> {
  const deleted: { deal_id: string; amount: string }[] = [];
  for (const part of chunks(
    lines.map((l) => l.id),
    5000,
  )) {
    const { rows } = await sql<{ deal_id: string; amount: string; status: string }>`
      DELETE FROM commission_lines WHERE id = ANY(${part}::text[]) AND NOT locked
      RETURNING deal_id, amount::text AS amount, status`.execute(tx);
    for (const r of rows) if (r.status !== "void") deleted.push(r);
  }
  return deleted;
}

/**
 * Writes the diff in batches. Returns what each deal's total moved by (exact: only
 * rows the statements wrote count), and one `commission.calculated` event per line whose amount changed
 * (a new line, or a void one coming back, has previous_amount null).
 */
export async function applyDiff(
  tx: Tx,
  now: Date,
  diff: LineDiff,
): Promise<{ deltas: Map<string, Fixed>; events: LineEvent[] }> {
  const inserts = await mapTurning(diff.inserts, (line) => withId(line, newId("com", now.getTime())));
  const updates = await mapTurning(diff.updates, ({ before, after }) => withId(after, before.id));
  await insertLines(tx, now, inserts);
  const updated = await updateLines(tx, now, updates);
  const deleted = await deleteLines(tx, diff.deletes);
  const deltas = new TotalDeltas();
  for (const line of inserts) deltas.add(line.deal_id, line.amount);
  const events: LineEvent[] = inserts.map((line) => ({ id: line.id, previous_amount: null }));
  diff.updates.forEach(({ before }, i) => {
    const line = updates[i]!;
    if (!updated.has(line.id)) return;
    const previous = before.status === "void" ? null : before.amount;
    deltas.add(line.deal_id, line.amount);
    if (previous !== null) deltas.add(line.deal_id, previous, -1);
    // By value: the column keeps 3 decimals ("8.000") where the line is written "8.00".
    if (previous !== null && compareTexts(previous, line.amount) === 0) return;
    events.push({ id: line.id, previous_amount: previous });
  });
  for (const row of deleted) deltas.add(row.deal_id, row.amount, -1);
  return { deltas: deltas.byDeal, events };
}

/** A credit's no-plan note and the pairs its plan and SPIFF lines miss (API.md §15; null: none). */
export interface ReasonChange {
  deal_id: string;
  user_id: string;
  reason: string | null;
  fx_missing: FxMissing[] | null;
}

export async function updateNoPlanReasons(tx: Tx, changes: ReasonChange[]): Promise<void> {
  for (const part of chunks(changes)) {
    await sql`
      UPDATE deal_splits AS s SET no_plan_reason = v.reason, fx_missing = v.fx_missing
      FROM jsonb_to_recordset(${JSON.stringify(part)}::jsonb) AS v(deal_id text, user_id text, reason text,
        fx_missing jsonb)
      WHERE s.deal_id = v.deal_id AND s.user_id = v.user_id`.execute(tx);
  }
}

import type { Ctx, Tx } from "../../context.js";
import type { Db } from "../../db/schema.js";
import { emit } from "../../events/emit.js";
import { newId } from "../../ids.js";
import { parse, plain } from "../../money/index.js";
import {
  type ClawbackDeal,
  type ClawbackEvent,
  type ClawbackSummaryItem,
  computeClawbacks,
  versionKey,
} from "../engine/index.js";
import { refreshTotals } from "../recalc/index.js";
import type { Commission, PreviewLine } from "../schema.js";
import { planPeriodOn } from "./adjustments.js";
import * as repo from "./clawbacks-repository.js";
import { findLines } from "./deal-lines-repository.js";

/*
 * Clawbacks (API.md §14): what a cancellation or a refund takes back of a deal's lines, computed by the pure
 * engine (engine/clawback.ts) from the lines as stored; the preview and the action share `planClawbacks`, so
 * a preview shows exactly what the action then writes.
 */

export interface ClawbackDealInput extends ClawbackDeal {
  id: string;
  currency: string;
}

export interface PlannedClawbacks {
  clawback_summary: ClawbackSummaryItem[];
  /** The lines it would write, as a preview shows lines (period: the user's plan period containing effective_date). */
  lines: PreviewLine[];
}

/** What the event claws back; `refunds` are the deal's earlier refunds. Reads only. */
export async function planClawbacks(
  db: Db,
  deal: ClawbackDealInput,
  refunds: { amount: string; effective_date: string }[],
  event: ClawbackEvent,
): Promise<PlannedClawbacks> {
  const lines = await repo.clawbackSourceLines(db, deal.id);
  const versions = new Map<string, { plan_id: string; version: number }>();
  for (const l of lines) {
    if (l.plan_id && l.plan_version !== null) {
      versions.set(versionKey(l.plan_id, l.plan_version), { plan_id: l.plan_id, version: l.plan_version });
    }
  }
  const plans = await repo.clawbackPlans(db, [...versions.values()]);
  const result = computeClawbacks({ deal, lines, plans, refunds, event });
  const periods = new Map<string, string>();
  for (const l of result.lines) {
    if (!periods.has(l.user_id)) {
      periods.set(l.user_id, await planPeriodOn(db, l.user_id, deal.currency, event.effective_date));
    }
  }
  return {
    clawback_summary: result.summary,
    lines: result.lines.map((l) => ({
      user_id: l.user_id,
      plan_id: l.plan_id,
      plan_version: l.plan_version,
      spiff_id: null,
      kind: "clawback" as const,
      period: periods.get(l.user_id)!,
      amount: l.explanation.amount,
      currency: l.currency,
      explanation: l.explanation,
    })),
  };
}

/**
 * Writes the planned lines (approved and locked), refreshes the deal's total_commission and returns the
 * lines as stored, in the plan's order. `announceClawbacks` raises their events.
 */
export async function writeClawbacks(
  tx: Tx,
  ctx: Ctx,
  dealId: string,
  planned: PlannedClawbacks,
  refundId: string | null,
): Promise<Commission[]> {
  if (planned.lines.length === 0) return [];
  const rows = planned.lines.map((l) => ({
    id: newId("com", ctx.now.getTime()),
    deal_id: dealId,
    user_id: l.user_id,
    plan_id: l.plan_id!,
    plan_version: l.plan_version!,
    period: l.period,
    amount: plain(parse(l.amount)), // already at the minor unit (KWD keeps 3 decimals)
    currency: l.currency,
    explanation: l.explanation,
    refund_id: refundId,
  }));
  await repo.insertClawbacks(tx, rows, ctx.now);
  await refreshTotals(tx, ctx.now, [dealId]);
  const byId = new Map(
    (
      await findLines(
        tx,
        rows.map((r) => r.id),
      )
    ).map((l) => [l.id, l]),
  );
  return rows.map((r) => byId.get(r.id)!);
}

/** `commission.calculated` for each new clawback line (previous_amount null: a new line). */
export async function announceClawbacks(tx: Tx, ctx: Ctx, lines: Commission[]): Promise<void> {
  for (const line of lines) await emit(tx, ctx, "commission.calculated", { object: line, previous_amount: null });
}

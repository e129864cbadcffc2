import { MAY } from "../access/index.js";
import { type Ctx, requireScope } from "../context.js";
import { validationError } from "../errors.js";
import { offsetOf, type Page } from "../http/pagination.js";
import { type Fixed, minus, moneyNumber, parse, plus, sign, ZERO } from "../money/index.js";
import { capitalized } from "./book.js";
import * as repo from "./repository.js";
import { assetSchedule, monthIndex, monthLabel, monthOf } from "./schedule.js";
import type { AccountingAsset, RollForward, RollForwardQuery, ScheduleQuery } from "./schema.js";

// The reports of API.md §17, per currency: an asset's schedule, the roll-forward, the journal.

export const MAX_ROLL_FORWARD_MONTHS = 120;

export async function listSchedules(ctx: Ctx, query: ScheduleQuery): Promise<Page<AccountingAsset>> {
  requireScope(ctx, "read", MAY.accounting);
  const month = query.month === undefined ? undefined : monthIndex(query.month);
  const { rows, total } = await repo.pageOfAssets(
    ctx.db,
    { deal_id: query.deal_id, user_id: query.user_id, month },
    offsetOf(query),
  );
  const events = await repo.eventsOf(
    ctx.db,
    rows.map((r) => r.line_id),
  );
  const at = query.month ?? monthOf(ctx.now.toISOString());
  const data = rows.map((row) => {
    const asset = capitalized(row);
    const own = events
      .filter((e) => e.line_id === row.line_id)
      .map((e) =>
        e.type === "impairment"
          ? { type: e.type, month: monthLabel(e.month) }
          : { type: e.type, month: monthLabel(e.month), amount: parse(e.amount!) },
      );
    const schedule = asset ? assetSchedule(asset, own) : [];
    const money = (a: Fixed) => moneyNumber(a, row.currency);
    const balance = schedule.filter((m) => m.month <= at).at(-1)?.closing ?? ZERO;
    return {
      line_id: row.line_id,
      deal_id: row.deal_id,
      user_id: row.user_id,
      kind: row.kind,
      currency: row.currency,
      amount: money(parse(row.amount)),
      treatment: row.treatment,
      months: row.months,
      start_month: monthLabel(row.start_month),
      approved_on: row.approved_on,
      balance: money(balance),
      schedule: schedule.map((m) => ({
        month: m.month,
        addition: money(m.addition),
        adjustment: money(m.adjustment),
        amortization: money(m.amortization),
        clawback: money(m.clawback),
        impairment: money(m.impairment),
        closing: money(m.closing),
      })),
    };
  });
  return { data, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function getRollForward(ctx: Ctx, query: RollForwardQuery): Promise<RollForward> {
  requireScope(ctx, "read", MAY.accounting);
  const from = monthIndex(query.from);
  const to = monthIndex(query.to);
  if (to - from + 1 > MAX_ROLL_FORWARD_MONTHS) {
    throw validationError(
      "to",
      `must be at most ${MAX_ROLL_FORWARD_MONTHS} months from \`from\` (this span is ${to - from + 1})`,
    );
  }
  const sums = await repo.rollForwardSums(ctx.db, from, to);
  return { from: query.from, to: query.to, data: sums.flatMap(rollForwardRow) };
}

/** A currency's row with its closing, current and noncurrent; none when nothing moved or stood. */
export function rollForwardRow(s: repo.RollForwardSums) {
  const [opening, additions, adjustments, amortization, clawbacks, impairment, current] = [
    s.opening,
    s.additions,
    s.adjustments,
    s.amortization,
    s.clawbacks,
    s.impairment,
    s.current,
  ].map((t) => parse(t ?? "0")) as [Fixed, Fixed, Fixed, Fixed, Fixed, Fixed, Fixed];
  const closing = minus(plus(plus(opening, additions), adjustments), plus(plus(amortization, clawbacks), impairment));
  const all = [opening, additions, adjustments, amortization, clawbacks, impairment, closing, current];
  if (all.every((a) => sign(a) === 0)) return [];
  const money = (a: Fixed) => moneyNumber(a, s.currency);
  return [
    {
      currency: s.currency,
      opening: money(opening),
      additions: money(additions),
      adjustments: money(adjustments),
      amortization: money(amortization),
      clawbacks: money(clawbacks),
      impairment: money(impairment),
      closing: money(closing),
      current: money(current),
      noncurrent: money(minus(closing, current)),
    },
  ];
}

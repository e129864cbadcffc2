import type { Ctx } from "../../context.js";
import { offsetOf, type Page } from "../../http/pagination.js";
import { amountNumber, parse, plus } from "../../money/index.js";
import { periodOf, periodRange } from "../engine/index.js";
import type { ListPeriodsQuery, PeriodSummary } from "../schema.js";
import { planPeriodOn } from "./plan-period-on.js";
import { requireStatementReader } from "./statement.js";
import { statementCurrency } from "./statement-currency.js";
import { planSpans } from "./statement-plans-repository.js";
import { type PeriodSums, periodSumsOfUser } from "./statement-repository.js";

const KIND_ORDER = { month: 0, quarter: 1, year: 2 } as const;

function kindOf(period: string): PeriodSummary["period_kind"] {
  return period.length === 4 ? "year" : period.includes("Q") ? "quarter" : "month";
}

/** A period's sums, one row per currency: `total` and `by_status` in `currency`, the rest per currency. */
function summary(period: string, rows: PeriodSums[], current: boolean, currency: string): PeriodSummary {
  const mine = rows.find((r) => r.currency === currency) ?? { pending: "0", approved: "0", paid: "0" };
  const [pending, approved, paid] = [parse(mine.pending), parse(mine.approved), parse(mine.paid)];
  const totalOf = (r: Pick<PeriodSums, "pending" | "approved" | "paid">) =>
    plus(plus(parse(r.pending), parse(r.approved)), parse(r.paid));
  return {
    period,
    period_kind: kindOf(period),
    ...periodRange(period),
    current,
    lines: rows.reduce((n, r) => n + r.lines, 0),
    currency,
    by_status: { pending: amountNumber(pending), approved: amountNumber(approved), paid: amountNumber(paid) },
    total: amountNumber(totalOf(mine)),
    totals_by_currency: rows.map((r) => ({ currency: r.currency, amount: amountNumber(totalOf(r)) })),
  };
}

/**
 * The periods a person has non-void lines in, and the period of their plan in force today even without
 * lines: newest first (by last day, then month before quarter before year). A person has a few periods a
 * year, so the page is cut from the whole list.
 */
export async function listPeriods(ctx: Ctx, userId: string, query: ListPeriodsQuery): Promise<Page<PeriodSummary>> {
  await requireStatementReader(ctx, userId);
  const today = ctx.now.toISOString().slice(0, 10);
  const [sums, spans] = await Promise.all([periodSumsOfUser(ctx.db, userId), planSpans(ctx.db, [userId])]);
  const kind = planPeriodOn(spans.get(userId) ?? [], today);
  const current = kind === undefined ? undefined : periodOf(kind, today);
  const byPeriod = new Map<string, PeriodSums[]>();
  for (const s of sums) byPeriod.set(s.period, [...(byPeriod.get(s.period) ?? []), s]);
  if (current !== undefined && !byPeriod.has(current)) byPeriod.set(current, []);
  const periods = [...byPeriod].map(([period, rows]) => {
    const counts = new Map(rows.map((r) => [r.currency, r.lines]));
    return summary(period, rows, period === current, statementCurrency(spans.get(userId) ?? [], period, counts));
  });
  periods.sort((a, b) =>
    a.to === b.to ? KIND_ORDER[a.period_kind] - KIND_ORDER[b.period_kind] : a.to < b.to ? 1 : -1,
  );
  const { limit, offset } = offsetOf(query);
  return {
    data: periods.slice(offset, offset + limit),
    meta: { page: query.page, per_page: query.per_page, total: periods.length },
  };
}

import type { Ctx } from "../../context.js";
import { offsetOf, type Page } from "../../http/pagination.js";
import { amountNumber, parse, plus } from "../../money/index.js";
import { periodOf, periodRange } from "../engine/index.js";
import type { ListPeriodsQuery, PeriodSummary } from "../schema.js";
import { requireStatementReader } from "./statement.js";
import { type PeriodSums, periodSumsOfUser, planPeriodKindsOn } from "./statement-repository.js";

const KIND_ORDER = { month: 0, quarter: 1, year: 2 } as const;

function kindOf(period: string): PeriodSummary["period_kind"] {
  return period.length === 4 ? "year" : period.includes("Q") ? "quarter" : "month";
}

function summary(sums: PeriodSums, current: boolean): PeriodSummary {
  const [pending, approved, paid] = [parse(sums.pending), parse(sums.approved), parse(sums.paid)];
  return {
    period: sums.period,
    period_kind: kindOf(sums.period),
    ...periodRange(sums.period),
    current,
    lines: sums.lines,
    by_status: { pending: amountNumber(pending), approved: amountNumber(approved), paid: amountNumber(paid) },
    total: amountNumber(plus(plus(pending, approved), paid)),
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
  const [sums, kinds] = await Promise.all([
    periodSumsOfUser(ctx.db, userId),
    planPeriodKindsOn(ctx.db, [userId], today),
  ]);
  const kind = kinds.get(userId);
  const current = kind === undefined ? undefined : periodOf(kind, today);
  const periods = sums.map((s) => summary(s, s.period === current));
  if (current !== undefined && !sums.some((s) => s.period === current))
    periods.push(summary({ period: current, lines: 0, pending: "0", approved: "0", paid: "0" }, true));
  periods.sort((a, b) =>
    a.to === b.to ? KIND_ORDER[a.period_kind] - KIND_ORDER[b.period_kind] : a.to < b.to ? 1 : -1,
  );
  const { limit, offset } = offsetOf(query);
  return {
    data: periods.slice(offset, offset + limit),
    meta: { page: query.page, per_page: query.per_page, total: periods.length },
  };
}

import { MAY } from "../access/index.js";
import { listRunLines } from "../commissions/index.js";
import { type Ctx, requireScope } from "../context.js";
import type { Db } from "../db/schema.js";
import { notFound } from "../errors.js";
import * as payeeRows from "./payees-repository.js";
import * as repo from "./repository.js";
import { DEFAULT_LINES_QUERY, type PayoutRunDetail, type PayoutRunSummary, type RunLinesQuery } from "./schema.js";

/** A run with its payees and a page of its lines (GET /payout-runs/{id}). */
export async function getPayoutRun(
  ctx: Ctx,
  id: string,
  query: RunLinesQuery = DEFAULT_LINES_QUERY,
): Promise<PayoutRunDetail> {
  requireScope(ctx, "read", MAY.payoutRuns);
  const row = await repo.findRun(ctx.db, id);
  if (!row) throw notFound("Payout run", id);
  return detailOf(ctx.db, row, query);
}

export async function summaryOf(db: Db, row: repo.RunRow): Promise<PayoutRunSummary> {
  return repo.toSummary(row, (await payeeRows.totalsOf(db, [row.id])).get(row.id)!);
}

export async function detailOf(
  db: Db,
  row: repo.RunRow,
  query: RunLinesQuery = DEFAULT_LINES_QUERY,
): Promise<PayoutRunDetail> {
  const [summary, payees, lines] = await Promise.all([
    summaryOf(db, row),
    payeeRows.payeesOf(db, row.id),
    listRunLines(db, row.id, query),
  ]);
  return { ...summary, payees, lines };
}

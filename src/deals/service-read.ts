import { dealSeen, visibleUserIds } from "../access/index.js";
import { type Commission, linesOfDeal } from "../commissions/index.js";
import { type Ctx, requireScope, type Tx } from "../context.js";
import type { Db } from "../db/schema.js";
import { notFound } from "../errors.js";
import { offsetOf, type Page, type RenderedPage } from "../http/pagination.js";
import { parse, plain, plus, ZERO } from "../money/index.js";
import * as listQuery from "./list-query.js";
import * as repo from "./repository.js";
import type { Deal, DealDetail, ListDealsQuery } from "./schema.js";

// More delta rows than this in one count and the reader folds them (the retention job also does, every 10 min).
const COMPACT_AFTER_ROWS = 1000;

/** A page of deals as GET /deals sends it: the deals as the JSON text of the Deal schema. */
export async function listDealsRendered(ctx: Ctx, query: ListDealsQuery): Promise<RenderedPage> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const visible = await visibleUserIds(ctx);
  const { dataText, total, deltaRows } = await listQuery.listDeals(ctx.db, query, visible, limit, offset);
  if (deltaRows > COMPACT_AFTER_ROWS && !ctx.db.isTransaction) void compactDealCounts(ctx.db).catch(() => {});
  return { dataText, meta: { page: query.page, per_page: query.per_page, total } };
}

export async function listDeals(ctx: Ctx, query: ListDealsQuery): Promise<Page<Deal>> {
  const { dataText, meta } = await listDealsRendered(ctx, query);
  return { data: JSON.parse(dataText) as Deal[], meta };
}

/** Folds the per-status deal count deltas (a total read sums fewer rows after). */
export function compactDealCounts(db: Db): Promise<void> {
  return listQuery.compactDealCounts(db);
}

/** A single-deal response: the deal as stored now, its lines, and the background job if one started. */
export async function detailOf(db: Db | Tx, id: string, jobId: string | null): Promise<DealDetail> {
  const record = await repo.findDeal(db, id);
  if (!record) throw notFound("Deal", id);
  return detailOfRecord(db, record, jobId);
}

/** The same response for a record the caller already holds as stored (a transition's `setStatus` result). */
export async function detailOfRecord(db: Db | Tx, record: repo.DealRecord, jobId: string | null): Promise<DealDetail> {
  return detailWithLines(record, await linesOfDeal(db, record.id), jobId);
}

/** The same response when the deal's lines as stored now are read already. */
export function detailWithLines(record: repo.DealRecord, lines: Commission[], jobId: string | null): DealDetail {
  return { ...repo.toDeal(record), people: peopleOf(record), commissions: lines, recalculation_job_id: jobId };
}

/** The owner, then each credited user not named yet, by the names read with the record's splits. */
function peopleOf(record: repo.DealRecord): DealDetail["people"] {
  const people = record.owner_name === undefined ? [] : [{ user_id: record.owner_id, name: record.owner_name }];
  for (const split of record.splits) {
    if (split.name !== undefined && !people.some((p) => p.user_id === split.user_id)) {
      people.push({ user_id: split.user_id, name: split.name });
    }
  }
  return people;
}

/** The deal, its lines and what the caller sees are read at once (a small GET waits one round trip, not four). */
export async function getDeal(ctx: Ctx, id: string): Promise<DealDetail> {
  requireScope(ctx, "read");
  const [record, lines, visible] = await Promise.all([
    repo.findDeal(ctx.db, id),
    linesOfDeal(ctx.db, id),
    visibleUserIds(ctx),
  ]);
  return visibleDetail(visible, record, id, lines);
}

/** Σ of the non-void lines, exact (API.md §5 rule 7's total, over the lines given). */
function totalOf(lines: Commission[]): number {
  const sum = lines.reduce((acc, line) => (line.status === "void" ? acc : plus(acc, parse(line.amount))), ZERO);
  return Number(plain(sum));
}

/**
 * A deal as the caller sees it: one they neither own nor are credited on (nor anyone below them) is
 * 404, and its lines are only those of users they see (a co-credited rep's line is theirs alone), and
 * so is its total (API.md §20 b: the deal's total less their line would be their partner's pay).
 */
function visibleDetail(
  visible: readonly string[] | null,
  record: repo.DealRecord | undefined,
  id: string,
  lines: Commission[],
): DealDetail {
  if (!record || !dealSeen(visible, record)) throw notFound("Deal", id);
  if (!visible) return detailWithLines(record, lines, null);
  const commissions = lines.filter((line) => visible.includes(line.user_id));
  const narrowed = { total_commission: totalOf(commissions), total_commission_scope: "visible" as const };
  return { ...detailWithLines(record, commissions, null), ...narrowed };
}

/** The deal with this CRM id as GET /deals/{id} shows it (PUT by external id checks If-Match on it). */
export async function getDealByExternalId(ctx: Ctx, externalId: string): Promise<DealDetail> {
  requireScope(ctx, "read");
  const [found] = await repo.findByExternalIds(ctx.db, [externalId]);
  const visible = await visibleUserIds(ctx);
  if (!found || !dealSeen(visible, found)) throw notFound("Deal with external_id", externalId);
  return visibleDetail(visible, found, found.id, await linesOfDeal(ctx.db, found.id));
}

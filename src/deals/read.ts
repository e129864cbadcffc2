import { dealSeen, visibleUserIds } from "../access/index.js";
import { type Commission, linesOfDeal } from "../commissions/index.js";
import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { lineSumsOf } from "./commission-totals.js";
import { detailWithLines } from "./detail.js";
import * as repo from "./repository.js";
import type { DealDetail } from "./schema.js";

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
  const narrowed = { ...record, line_sums: lineSumsOf(commissions) };
  return { ...detailWithLines(narrowed, commissions, null), total_commission_scope: "visible" };
}

/** The deal with this CRM id as GET /deals/{id} shows it (PUT by external id checks If-Match on it). */
export async function getDealByExternalId(ctx: Ctx, externalId: string): Promise<DealDetail> {
  requireScope(ctx, "read");
  const [found] = await repo.findByExternalIds(ctx.db, [externalId]);
  const visible = await visibleUserIds(ctx);
  if (!found || !dealSeen(visible, found)) throw notFound("Deal with external_id", externalId);
  return visibleDetail(visible, found, found.id, await linesOfDeal(ctx.db, found.id));
}

import { type Ctx, requireScope } from "../context.js";
import { offsetOf, type Page } from "../http/pagination.js";
import * as repo from "./repository.js";
import type { ExchangeRateSet, ListRatesQuery } from "./schema.js";

export async function listExchangeRates(ctx: Ctx, query: ListRatesQuery): Promise<Page<ExchangeRateSet>> {
  requireScope(ctx, "read");
  const { limit, offset } = offsetOf(query);
  const { rows, total } = await repo.listRateSets(ctx.db, query, limit, offset);
  return { data: rows, meta: { page: query.page, per_page: query.per_page, total } };
}

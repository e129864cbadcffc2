import { type Ctx, requireScope } from "../context.js";
import { AppError } from "../errors.js";
import * as repo from "./repository.js";
import type { ExchangeRateSet } from "./schema.js";

export async function getExchangeRates(ctx: Ctx, date: string, base: string): Promise<ExchangeRateSet> {
  requireScope(ctx, "read");
  const set = await repo.findRateSet(ctx.db, date, base);
  if (!set) throw new AppError("not_found", `No ${base} exchange rates on ${date}`);
  return set;
}

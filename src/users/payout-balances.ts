import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { deficitsOf, drawBalancesOf } from "./payout-balances-repository.js";
import * as repo from "./repository.js";
import type { PayoutBalance } from "./schema.js";

/**
 * What later payout runs will recover from the person, per currency (API.md §13): the deficit, and each
 * recoverable draw's balance (§18; a currency with only a draw balance is listed with deficit 0).
 * Finance, admins and keys read anyone's; a rep or manager only their own (anyone else's is 404).
 */
export async function payoutBalances(ctx: Ctx, id: string): Promise<PayoutBalance[]> {
  requireScope(ctx, "read");
  const { actor } = ctx;
  const own = actor.type !== "user" || ["admin", "finance"].includes(actor.role) || actor.userId === id;
  if (!own || !(await repo.findUser(ctx.db, id))) throw notFound("User", id);
  const [deficits, draws] = await Promise.all([deficitsOf(ctx.db, id), drawBalancesOf(ctx.db, id)]);
  const currencies = [...new Set([...deficits.map((r) => r.currency), ...draws.map((r) => r.currency)])].sort();
  return currencies.map((currency) => ({
    currency,
    deficit: Number(deficits.find((r) => r.currency === currency)?.deficit ?? 0),
    draws: draws
      .filter((r) => r.currency === currency)
      .map((r) => ({ draw_id: r.draw_id, balance: Number(r.balance) })),
  }));
}

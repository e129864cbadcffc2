import { type Ctx, requireScope } from "../context.js";
import { notFound } from "../errors.js";
import { deficitsOf } from "./payout-balances-repository.js";
import * as repo from "./repository.js";
import type { PayoutBalance } from "./schema.js";

/**
 * What later payout runs will recover from the person, per currency (API.md §13); draws arrive with §18.
 * Finance, admins and keys read anyone's; a rep or manager only their own (anyone else's is 404).
 */
export async function payoutBalances(ctx: Ctx, id: string): Promise<PayoutBalance[]> {
  requireScope(ctx, "read");
  const { actor } = ctx;
  const own = actor.type !== "user" || ["admin", "finance"].includes(actor.role) || actor.userId === id;
  if (!own || !(await repo.findUser(ctx.db, id))) throw notFound("User", id);
  const rows = await deficitsOf(ctx.db, id);
  return rows.map((r) => ({ currency: r.currency, deficit: Number(r.deficit), draws: [] }));
}

import { lockForRecalc } from "../commissions/index.js";
import type { Tx } from "../context.js";
import { conflict, notFound } from "../errors.js";
import { throwIfInvalid } from "./checks.js";
import { creditedUsers, missingUsers } from "./records.js";
import * as repo from "./repository.js";
import { creditedUserIds } from "./transitions-repository.js";

/**
 * Locks, in the global order, the users the deal credits now (read from its splits) and those the body
 * names, then the deal, whose record it returns: the only read of the deal row. If its credited users
 * changed meanwhile (their locks are not all held), the caller retries (409).
 */
export async function lockDealAndUsers(tx: Tx, id: string, named: [string, string][]): Promise<repo.DealRecord> {
  const credited = await creditedUserIds(tx, id);
  const known = await lockForRecalc(tx, { users: [...named.map(([, u]) => u), ...credited] });
  throwIfInvalid(missingUsers(named, known));
  const deal = await repo.lockDeal(tx, id);
  if (!deal) throw notFound("Deal", id);
  if (creditedUsers([deal]).some((u) => !known.has(u))) {
    throw conflict(`Deal ${id} changed while this request ran; retry`);
  }
  return deal;
}

import { lockForRecalc } from "../commissions/index.js";
import type { Ctx, Tx } from "../context.js";
import type { ErrorDetail } from "../errors.js";
import { existingUserIds } from "../users/index.js";
import {
  contractProblems,
  creditedUsers,
  missingUsers,
  namedUsers,
  sameDeal,
  upsertChange,
  writableOf,
} from "./records.js";
import * as repo from "./repository.js";
import type { BulkItem } from "./schema.js";

/** A stored deal as a PUT /deals/by-external-id body that leaves it as it is (splits null: they follow the owner). */
export interface StoredDealInput {
  external_id: string;
  opportunity_name: string;
  arr_amount: number;
  currency: string;
  deal_type: string;
  close_date: string;
  owner_id: string;
  splits: { user_id: string; percent: number }[] | null;
  contract_start: string | null;
  contract_end: string | null;
}

export type UpsertAction = "create" | "update" | "unchanged";

/** What upserting one item would do, or why it is refused (params relative to the item: `owner_id`, `splits[1].user_id`). */
export type UpsertCheck = { action: UpsertAction } | { action: "error"; problems: ErrorDetail[] };

export interface UpsertPreview {
  /** The stored deal with this external_id, as an upsert body (a file's missing columns keep these values). */
  stored(externalId: string): StoredDealInput | undefined;
  /** The rules of PUT /deals/by-external-id and POST /deals/bulk, applied to one item, writing nothing. */
  check(item: BulkItem): UpsertCheck;
}

function inputOf(d: repo.DealRecord): StoredDealInput {
  return {
    external_id: d.external_id!,
    opportunity_name: d.opportunity_name,
    arr_amount: Number(d.arr_amount),
    currency: d.currency,
    deal_type: d.deal_type,
    close_date: d.close_date,
    owner_id: d.owner_id,
    splits: d.splits_explicit ? d.splits.map((s) => ({ user_id: s.user_id, percent: Number(s.percent) })) : null,
    contract_start: d.contract_start,
    contract_end: d.contract_end,
  };
}

/**
 * Reads the deals holding these external ids and the users the items may name (`userIds`) or the stored
 * deals credit, so each item can be checked as the bulk upsert would check it (the CSV import's dry run
 * and its check before writing). With `lock`, takes the bulk upsert's locks first (its external ids,
 * then those users), so nothing checked changes before the caller writes in the same transaction.
 */
export async function previewUpserts(
  tx: Tx,
  ctx: Pick<Ctx, "now">,
  externalIds: string[],
  userIds: string[],
  options: { lock: boolean },
): Promise<UpsertPreview> {
  if (options.lock) await repo.lockExternalIds(tx, externalIds);
  const existing = new Map((await repo.findByExternalIds(tx, externalIds)).map((d) => [d.external_id!, d]));
  const users = [...userIds, ...creditedUsers([...existing.values()])];
  const known = options.lock ? await lockForRecalc(tx, { users }) : await existingUserIds(tx, users);
  return {
    stored: (externalId) => {
      const d = existing.get(externalId);
      return d && inputOf(d);
    },
    check: (item) => {
      const fields = writableOf(item, item.external_id);
      const problems = [...contractProblems(fields), ...missingUsers(namedUsers(item), known)];
      if (problems.length > 0) return { action: "error", problems };
      const before = existing.get(item.external_id);
      if (!before) return { action: "create" };
      if (sameDeal(before, fields)) return { action: "unchanged" };
      if (upsertChange(ctx, before, fields)) return { action: "update" };
      const message = `deal ${before.id} is ${before.status}; an upsert may change only its contract dates`;
      return { action: "error", problems: [{ param: "", message }] };
    },
  };
}

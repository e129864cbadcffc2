import type { ErrorDetail } from "../errors.js";
import { minorUnitProblems } from "../http/commission-fields.js";
import { compareTexts } from "../money/index.js";
import type { DealRecord, SplitRecord } from "./repository.js";
import type { CreateDealBody, UpdateDealBody } from "./schema.js";

/** Building and comparing deal records: defaults, owner-following splits, replacement and merge. */

const defaultSplits = (ownerId: string): SplitRecord[] => [{ user_id: ownerId, percent: "100" }];

type Writable = Pick<
  DealRecord,
  | "external_id"
  | "opportunity_name"
  | "arr_amount"
  | "currency"
  | "deal_type"
  | "close_date"
  | "owner_id"
  | "splits"
  | "splits_explicit"
  | "contract_start"
  | "contract_end"
>;

/** The writable fields a create (or a whole-replacing upsert) body means, defaults applied. */
export function writableOf(input: CreateDealBody, externalId?: string | null): Writable {
  const explicit = input.splits !== undefined && input.splits !== null;
  return {
    external_id: externalId !== undefined ? externalId : (input.external_id ?? null),
    opportunity_name: input.opportunity_name,
    arr_amount: input.arr_amount,
    currency: input.currency,
    deal_type: input.deal_type,
    close_date: input.close_date,
    owner_id: input.owner_id,
    splits: explicit
      ? input.splits!.map((s) => ({ user_id: s.user_id, percent: s.percent }))
      : defaultSplits(input.owner_id),
    splits_explicit: explicit,
    contract_start: input.contract_start ?? null,
    contract_end: input.contract_end ?? null,
  };
}

export function newRecord(id: string, now: Date, fields: Writable): DealRecord {
  return {
    id,
    ...fields,
    status: "pending",
    total_commission: "0",
    rejection_reason: null,
    approved_at: null,
    paid_at: null,
    cancelled_at: null,
    cancel_reason: null,
    cancel_effective_date: null,
    refunded_amount: "0",
    fx_missing: "[]",
    override_fx_missing: null,
    created_at: now,
    updated_at: now,
  };
}

/** PATCH: omitted fields stay; splits never given keep following owner_id; `splits: null` goes back to that. */
export function patched(current: DealRecord, input: UpdateDealBody): DealRecord {
  const next: DealRecord = { ...current };
  for (const key of [
    "external_id",
    "opportunity_name",
    "arr_amount",
    "currency",
    "deal_type",
    "close_date",
    "owner_id",
    "contract_start",
    "contract_end",
  ] as const) {
    if (input[key] !== undefined) (next as unknown as Record<string, unknown>)[key] = input[key];
  }
  if (input.splits === null) next.splits_explicit = false;
  else if (input.splits !== undefined) {
    next.splits = input.splits.map((s) => ({ user_id: s.user_id, percent: s.percent }));
    next.splits_explicit = true;
  }
  if (!next.splits_explicit) next.splits = defaultSplits(next.owner_id);
  return next;
}

const sameSplits = (a: SplitRecord[], b: SplitRecord[]) =>
  a.length === b.length &&
  a.every((s, i) => s.user_id === b[i]!.user_id && compareTexts(s.percent, b[i]!.percent) === 0);

/**
 * Equal as the API shows them (decimals compared as numbers, "100.00" = "100"); with `flag`, whether
 * splits follow the owner counts too (a PATCH that pins them is a change).
 */
export function sameDeal(a: Writable, b: Writable, flag = false): boolean {
  return sameButContract(a, b, flag) && sameContract(a, b);
}

export const sameContract = (a: Writable, b: Writable) =>
  a.contract_start === b.contract_start && a.contract_end === b.contract_end;

/** Equal but for the contract dates (API.md §14: those move no line, so changing only them is allowed in every status). */
export function sameButContract(a: Writable, b: Writable, flag = false): boolean {
  return (
    (!flag || a.splits_explicit === b.splits_explicit) &&
    a.external_id === b.external_id &&
    a.opportunity_name === b.opportunity_name &&
    compareTexts(a.arr_amount, b.arr_amount) === 0 &&
    a.currency === b.currency &&
    a.deal_type === b.deal_type &&
    a.close_date === b.close_date &&
    a.owner_id === b.owner_id &&
    sameSplits(a.splits, b.splits)
  );
}

/** Statuses whose deal fields (but the contract dates) no edit changes; cancelled is final (API.md §14). */
export const LOCKED_STATUSES = new Set(["approved", "disputed", "paid", "cancelled"]);

/** API.md §14: contract_start and contract_end both or neither, start before end. */
export function contractProblems(
  w: Pick<Writable, "contract_start" | "contract_end" | "arr_amount" | "currency">,
  prefix = "",
): ErrorDetail[] {
  // API.md §15: arr_amount has at most the deal's currency's decimals (a PATCH checks the merged deal).
  const money = minorUnitProblems(w.currency, { arr_amount: w.arr_amount }, prefix);
  return [...money, ...contractSpanProblems(w, prefix)];
}

function contractSpanProblems(w: Pick<Writable, "contract_start" | "contract_end">, prefix: string): ErrorDetail[] {
  const { contract_start: start, contract_end: end } = w;
  if ((start === null) !== (end === null)) {
    const missing = start === null ? "contract_start" : "contract_end";
    const given = start === null ? "contract_end" : "contract_start";
    return [{ param: `${prefix}${missing}`, message: `is required with ${given} (give both or neither)` }];
  }
  if (start !== null && end !== null && start >= end) {
    return [{ param: `${prefix}contract_end`, message: `must be after contract_start (${start})` }];
  }
  return [];
}

/** Every user a body names, with where it names them (for 422 details). */
export function namedUsers(
  input: { owner_id?: string; splits?: { user_id: string }[] | null },
  prefix = "",
): [string, string][] {
  const named: [string, string][] = [];
  if (input.owner_id !== undefined) named.push([`${prefix}owner_id`, input.owner_id]);
  input.splits?.forEach((s, i) => {
    named.push([`${prefix}splits[${i}].user_id`, s.user_id]);
  });
  return named;
}

export function missingUsers(named: [string, string][], known: Set<string>): ErrorDetail[] {
  return named.flatMap(([param, id]) => (known.has(id) ? [] : [{ param, message: `user ${id} does not exist` }]));
}

export function creditedUsers(records: { splits: SplitRecord[] }[]): string[] {
  return records.flatMap((r) => r.splits.map((s) => s.user_id));
}

/**
 * What an upsert that differs from the stored deal does: a change of only the contract dates keeps the status
 * and moves no line (API.md §14; a rejected deal is resubmitted by any change, as before); any other change
 * resubmits the deal as pending, or is refused (undefined) when the deal is locked.
 */
export function upsertChange(
  ctx: { now: Date },
  before: DealRecord,
  fields: Writable,
): { before: DealRecord; after: DealRecord; contractOnly: boolean } | undefined {
  if (before.status !== "rejected" && sameButContract(before, fields)) {
    const { contract_start, contract_end } = fields;
    return { before, after: { ...before, contract_start, contract_end, updated_at: ctx.now }, contractOnly: true };
  }
  if (LOCKED_STATUSES.has(before.status)) return undefined;
  const after = { ...before, ...fields, status: "pending" as const, rejection_reason: null, updated_at: ctx.now };
  return { before, after, contractOnly: false };
}

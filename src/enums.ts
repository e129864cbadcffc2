/**
 * The values of every enum column, in the order the API documents them. The table types (db/) and the
 * features' zod enums both derive from these lists, so a value is added in one place (db/ is below the
 * features and may not import their schemas).
 */

/** Ordered: read ⊂ write ⊂ admin. */
export const SCOPES = ["read", "write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

export const ACTOR_TYPES = ["api_key", "owner", "user"] as const;
export const ROLES = ["rep", "manager", "admin", "finance"] as const;
export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

export const PLAN_STATUSES = ["draft", "active", "archived"] as const;
export const PLAN_PERIODS = ["month", "quarter", "year"] as const;
/** API.md §16: a standard plan pays the credited rep; an override plan pays a manager on the credits below. */
export const PLAN_KINDS = ["standard", "override"] as const;
export type PlanKind = (typeof PLAN_KINDS)[number];
export type PlanPeriod = (typeof PLAN_PERIODS)[number];

export const DEAL_TYPES = ["new_business", "expansion", "renewal", "other"] as const;
export type DealType = (typeof DEAL_TYPES)[number];
export const DEAL_STATUSES = ["pending", "approved", "rejected", "disputed", "paid", "cancelled"] as const;
export type DealStatus = (typeof DEAL_STATUSES)[number];

export const COMMISSION_KINDS = ["plan", "spiff", "override", "adjustment", "clawback", "draw"] as const;
/** API.md §14: how a cancellation scales a plan's clawback. */
export const CLAWBACK_PRORATIONS = ["none", "unserved_days"] as const;
export const COMMISSION_STATUSES = ["pending", "approved", "paid", "void"] as const;

export const PAYOUT_RUN_STATUSES = ["draft", "finalized", "cancelled"] as const;

export const DISPUTE_REASONS = [
  "wrong_amount",
  "wrong_deal_type",
  "missing_tier",
  "wrong_attribution",
  "spiff_missing",
  "other",
] as const;
export const DISPUTE_STATUSES = ["open", "resolved"] as const;
export const DISPUTE_OUTCOMES = ["approved", "partially_approved", "denied"] as const;
/** API.md §20 (b): whose lines a dispute's amounts are about (the opener's, or the whole deal's). */
export const DISPUTE_AMOUNT_SCOPES = ["user", "deal"] as const;

export const SUBSCRIPTION_STATUSES = ["active", "disabled"] as const;
export const DELIVERY_STATUSES = ["pending", "succeeded", "failed"] as const;

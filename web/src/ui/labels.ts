import type { Schemas } from "../api/types";

// The API's enums in words, one place for every page; `satisfies` fails the build when an enum changes.

export const ROLE_LABELS = {
  rep: "Rep",
  manager: "Manager",
  finance: "Finance",
  admin: "Admin",
} as const satisfies Record<Schemas["User"]["role"], string>;

export const DEAL_TYPE_LABELS = {
  new_business: "New business",
  expansion: "Expansion",
  renewal: "Renewal",
  other: "Other",
} as const satisfies Record<Schemas["Deal"]["deal_type"], string>;

export const LINE_KIND_LABELS = {
  plan: "Plan",
  spiff: "SPIFF",
  adjustment: "Adjustment",
} as const satisfies Record<Schemas["Commission"]["kind"], string>;

export const DISPUTE_REASON_LABELS = {
  wrong_amount: "Wrong amount",
  wrong_deal_type: "Wrong deal type",
  missing_tier: "Missing tier",
  wrong_attribution: "Wrong attribution",
  spiff_missing: "SPIFF missing",
  other: "Other",
} as const satisfies Record<Schemas["Dispute"]["reason"], string>;

export const DISPUTE_OUTCOME_LABELS = {
  approved: "Approved",
  partially_approved: "Partially approved",
  denied: "Denied",
} as const satisfies Record<NonNullable<Schemas["Dispute"]["outcome"]>, string>;

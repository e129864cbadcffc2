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

export const DEAL_STATUS_LABELS = {
  pending: "Pending",
  approved: "Approved",
  rejected: "Rejected",
  disputed: "Disputed",
  paid: "Paid",
  cancelled: "Cancelled",
} as const satisfies Record<Schemas["Deal"]["status"], string>;

export const LINE_KIND_LABELS = {
  plan: "Plan",
  spiff: "SPIFF",
  adjustment: "Adjustment",
  clawback: "Clawback",
  override: "Override",
  draw: "Draw",
} as const satisfies Record<Schemas["Commission"]["kind"] | "draw", string>;

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

/** What an audit event did, as the start of a sentence ("Approved by Rita Ops"); others show the action. */
export const AUDIT_ACTION_VERBS: Record<string, string> = {
  "deal.create": "Created",
  "deal.update": "Edited",
  "deal.approve": "Approved",
  "deal.reject": "Rejected",
  "deal.mark_paid": "Marked paid",
  "deal.delete": "Deleted",
  "deal.dispute": "Disputed",
  "deal.resolve_dispute": "Dispute resolved",
  "deal.adjust": "Adjusted",
  "dispute.open": "Dispute opened",
  "dispute.resolve": "Dispute resolved",
  "commission.adjust": "Commission adjusted",
};

/**
 * Who did it, in words: a person by their name (the API's actor name, or the everyone list's when it
 * knows the id), an API key by its name or id, the owner's command line as such.
 */
export function actorInWords(
  actor: { type: "api_key" | "owner" | "user"; id: string | null; name: string },
  names?: ReadonlyMap<string, string>,
): string {
  if (actor.type === "owner") return "the owner (command line)";
  if (actor.type === "api_key") return `the API key “${actor.name || actor.id}”`;
  return (actor.id && names?.get(actor.id)) || actor.name || actor.id || "someone";
}

/** Each kind of email (docs/notifications.md §2) as the account page's switch names it, and what it says. */
export const NOTIFICATION_KIND_LABELS = {
  invitation: { label: "Invitations", description: "The link to set your password when you are invited." },
  password_reset: { label: "Password reset links", description: "The link you ask for with “Forgot password?”." },
  deal_approved: { label: "Deal approved", description: "A deal you are credited on is approved." },
  deal_rejected: { label: "Deal rejected", description: "A deal you are credited on is rejected." },
  deal_cancelled: { label: "Deal cancelled", description: "A deal you are credited on is cancelled." },
  dispute_opened: { label: "Dispute opened", description: "Someone disputes a deal (sent to admins)." },
  dispute_resolved: { label: "Dispute answered", description: "A dispute on a deal you are credited on is answered." },
  payout_statement: { label: "Statement ready", description: "A payout run pays you: your statement and amount." },
  plan_acknowledgement: {
    label: "Plan to acknowledge",
    description: "A plan you are assigned asks for your acknowledgement.",
  },
  weekly_digest: {
    label: "Weekly team digest",
    description:
      "Mondays: your team's deals approved, rejected and waiting, and open disputes (managers; off unless turned on).",
  },
} as const satisfies Record<Schemas["NotificationKind"], { label: string; description: string }>;

import { type Ctx, withTransaction } from "../context.js";
import {
  approveDeal,
  type DealStatus,
  getDeal,
  markDealPaid,
  openDispute,
  rejectDeal,
  resolveDispute,
} from "../deals/index.js";
import { ListDisputesQuery, listDisputes, OpenDisputeBody, ResolveDisputeBody } from "../disputes/index.js";
import { plus as add, centsNumber, parse } from "../money/index.js";

/*
 * Moves the demo deals to their target statuses through the same service functions the API calls
 * (reject, approve, open and resolve disputes, mark paid), so every seeded state is one the workflow
 * reaches, with its audit rows, events, locked lines and dispute records. Re-runs continue from each
 * deal's current status, so an interrupted seed finishes on the next run.
 */

export interface SeedDeal {
  id: string;
  status: DealStatus;
  target: DealStatus;
  /** The deal goes through a dispute resolved with this outcome on its way to its target. */
  resolved: ResolveDisputeBody["outcome"] | null;
}

type Step = "reject" | "approve" | "dispute" | "resolve" | "pay";

/** The next workflow action from `status` towards the deal's target, or null when it is there. */
function nextStep(deal: SeedDeal, status: DealStatus, owesDispute: boolean): Step | null {
  switch (status) {
    case "pending":
      return deal.target === "pending" ? null : deal.target === "rejected" ? "reject" : "approve";
    case "approved":
      if (owesDispute || deal.target === "disputed") return "dispute";
      return deal.target === "paid" ? "pay" : null;
    case "disputed":
      return deal.target === "disputed" ? null : "resolve";
    default:
      return null;
  }
}

const plus = (total: number, amount: number) => centsNumber(add(parse(total), parse(amount)));

const REASONS = ["wrong_amount", "missing_tier", "spiff_missing", "wrong_deal_type", "other"] as const;

const CLAIMS: Record<(typeof REASONS)[number], string> = {
  wrong_amount: "My own calculation of this deal comes to more than the statement shows.",
  missing_tier: "This deal took me past quota, so part of it should be at the higher rate.",
  spiff_missing: "This was an expansion during the push; I expected the SPIFF on it.",
  wrong_deal_type: "The customer added seats: this should count as an expansion, not new business.",
  other: "Please check this deal's credit against the signed order form.",
};

async function open(ctx: Ctx, deal: SeedDeal, n: number): Promise<void> {
  const reason = REASONS[n % REASONS.length]!;
  const total = (await getDeal(ctx, deal.id)).total_commission;
  // Claims above the computed total, so an `approved` resolution changes the amount (an adjustment line).
  const expected = reason === "wrong_amount" || deal.resolved === "approved" ? plus(total, 250) : null;
  const body = OpenDisputeBody.parse({
    reason,
    description: CLAIMS[reason],
    ...(expected === null ? {} : { expected_amount: expected }),
  });
  await openDispute(ctx, deal.id, body);
}

const NOTES = {
  denied: "Checked against the plan terms: the amount is right as calculated.",
  approved: "Agreed: the claim is right; the difference is paid as an adjustment.",
  partially_approved: "Partly agreed: part of the claim is paid as an adjustment.",
} as const;

async function resolve(ctx: Ctx, deal: SeedDeal): Promise<void> {
  const query = ListDisputesQuery.parse({ deal_id: deal.id, status: "open", per_page: 1 });
  const [dispute] = (await listDisputes(ctx, query)).data;
  if (!dispute) return;
  const outcome = deal.resolved ?? "denied";
  const total = (await getDeal(ctx, deal.id)).total_commission;
  const body = ResolveDisputeBody.parse({
    outcome,
    note: NOTES[outcome],
    ...(outcome === "partially_approved" ? { resolved_amount: plus(total, 100) } : {}),
  });
  await resolveDispute(ctx, dispute.id, body);
}

async function advance(ctx: Ctx, deal: SeedDeal, disputedBefore: boolean, n: number): Promise<void> {
  let status = deal.status;
  let owesDispute = deal.resolved !== null && !disputedBefore;
  for (let step = nextStep(deal, status, owesDispute); step; step = nextStep(deal, status, owesDispute)) {
    if (step === "reject")
      status = (await rejectDeal(ctx, deal.id, "Duplicate of an opportunity already entered")).status;
    else if (step === "approve") status = (await approveDeal(ctx, deal.id)).status;
    else if (step === "pay") status = (await markDealPaid(ctx, deal.id)).status;
    else if (step === "dispute") {
      await open(ctx, deal, n);
      status = "disputed";
    } else {
      await resolve(ctx, deal);
      status = "approved";
      owesDispute = false;
    }
  }
}

const BATCH = 50;

/**
 * Rejections first (each recalculates the pending deals after it), so the lines later approvals lock
 * are computed without the rejected credit, as they would be had the admin worked in that order.
 * Services join the caller's transaction: one per batch of deals rather than one per action (~1.5× faster).
 */
export async function applyStatuses(ctx: Ctx, deals: SeedDeal[], disputedBefore: Set<string>): Promise<void> {
  const rank = (d: SeedDeal) => (d.target === "rejected" ? 0 : 1);
  const ordered = [...deals].sort((a, b) => rank(a) - rank(b));
  for (let start = 0; start < ordered.length; start += BATCH) {
    await withTransaction(ctx, async (tx) => {
      const inBatch = { ...ctx, db: tx };
      for (let n = start; n < Math.min(start + BATCH, ordered.length); n++) {
        const deal = ordered[n]!;
        await advance(inBatch, deal, disputedBefore.has(deal.id), n);
      }
    });
  }
}

import { MAY } from "../../access/index.js";
import { AuditEvent } from "../../audit/schema.js";
import { adjustmentRoutes, NoContent, Preview } from "../../commissions/index.js";
import { declareRoutes, type RecordRef } from "../../declare-routes.js";
import { Dispute, OpenDisputeBody, resolveDisputeRoutes } from "../../disputes/index.js";
import { EmptyBody, IdParams } from "../../http/input-fields.js";
import type { App } from "../../http/types.js";
import { createAdjustment } from "../adjust.js";
import { approveDeal } from "../approve.js";
import { bulkUpsert } from "../bulk-upsert.js";
import { createDeal } from "../create.js";
import { deleteDeal } from "../delete.js";
import { dealHistory } from "../history.js";
import { listDealsRendered } from "../list.js";
import { markDealPaid } from "../mark-paid.js";
import { openDispute } from "../open-dispute.js";
import { previewDeal } from "../preview.js";
import { getDeal, getDealByExternalId } from "../read.js";
import { rejectDeal } from "../reject.js";
import { resolveDispute } from "../resolve-dispute.js";
import {
  BulkBody,
  BulkEnvelope,
  BulkItem,
  BulkResult,
  CreateDealBody,
  Deal,
  DealDetail,
  DealHistoryQuery,
  ExternalIdParams,
  ListDealsQuery,
  PreviewBody,
  RejectDealBody,
  UpdateDealBody,
} from "../schema.js";
import { updateDeal } from "../update.js";
import { upsertDeal } from "../upsert.js";

const tags = ["Deals"];

const LIST =
  "Sort by created_at, close_date, arr_amount or total_commission, prefixed - for descending (default -created_at); " +
  "ties always break on id in the same direction, so the order is stable across pages. Filters combine with AND; " +
  "status and deal_type take one value or several comma-separated; arr_amount_min/arr_amount_max bound arr_amount " +
  "(inclusive); plan_id keeps deals with a non-void plan line of that plan. List items carry no commission lines.";

const NO_PLAN =
  "A credited user with no plan in force earns no plan line; the deal's `explanation` then says " +
  '"no plan in force" and why (e.g. currency mismatch), per user.';

/** The deals as a collection: a deal's GET representation is its detail, with its lines. */
function dealRecords(app: App) {
  return declareRoutes(app, tags).records({
    path: "/deals",
    scope: { read: "read", write: "write" },
    record: DealDetail,
    read: getDeal,
  });
}

export function dealRecordRoutes(app: App): void {
  const deals = dealRecords(app);
  deals.list({ summary: "List deals", description: LIST, query: ListDealsQuery, item: Deal }, ({ ctx, query }) =>
    listDealsRendered(ctx, query),
  );
  deals.get({ summary: "Get a deal", description: `With its commission lines. ${NO_PLAN}` });

  historyRoute(app);
  writeRoutes(app);
  workflowRoutes(app);
  openDisputeRoute(app);
  // Declared by the features their URLs name; their services change a deal, so they live here.
  resolveDisputeRoutes(app, resolveDispute);
  adjustmentRoutes(app, createAdjustment);
  syncRoutes(app);
  previewRoute(app);
}

const DISPUTE: RecordRef = { path: "/disputes/:id", schema: Dispute };

const DEAL: RecordRef = { path: "/deals/:id", schema: DealDetail };

const RACE = "Of concurrent transitions on one deal exactly one wins; the others get 409 invalid_transition.";

/** The admin transitions of API.md §4 "Deal states". */
function workflowRoutes(app: App): void {
  const route = declareRoutes(app, ["Deals"]);
  route.post(
    {
      path: "/deals/:id/approve",
      scope: "admin",
      summary: "Approve a deal",
      description:
        "pending → approved: approved_at is set and the deal's lines become approved and locked (no later " +
        `recalculation changes them). Any other status → 409 invalid_transition naming it. ${RACE}`,
      params: IdParams,
      body: EmptyBody,
      response: DealDetail,
      represents: DEAL,
    },
    ({ ctx, params }) => approveDeal(ctx, params.id),
  );

  route.post(
    {
      path: "/deals/:id/reject",
      scope: "admin",
      summary: "Reject a deal",
      description:
        "pending → rejected, with the required reason: the deal's lines are voided (out of totals and attainment) " +
        "and the later pending deals of the same periods are recalculated. Editing the deal later resubmits it. " +
        `Any other status → 409 invalid_transition naming it. ${RACE}`,
      params: IdParams,
      body: RejectDealBody,
      response: DealDetail,
      represents: DEAL,
    },
    ({ ctx, params, body }) => rejectDeal(ctx, params.id, body.reason),
  );

  route.post(
    {
      path: "/deals/:id/mark-paid",
      scope: "admin",
      roles: MAY.markPaid,
      summary: "Mark a deal paid",
      description:
        "approved → paid: paid_at is set and the deal's approved lines become paid. It records a payment made " +
        `elsewhere; it moves no money. Any other status → 409 invalid_transition naming it. ${RACE}`,
      params: IdParams,
      body: EmptyBody,
      response: DealDetail,
      represents: DEAL,
    },
    ({ ctx, params }) => markDealPaid(ctx, params.id),
  );
}

/** approved → disputed (API.md §4 "Deal states"); the resolution is declared in disputes/. */
function openDisputeRoute(app: App): void {
  const route = declareRoutes(app, ["Disputes"]);
  route.create(
    {
      path: "/deals/:id/disputes",
      scope: "write",
      roles: MAY.openDispute,
      summary: "Open a dispute on a deal",
      description:
        "approved → disputed: opens a dispute (reason required; description and expected_amount, the total the " +
        "disputer expects, optional). Any other deal status → 409 invalid_transition naming it.",
      params: IdParams,
      body: OpenDisputeBody,
      response: Dispute,
      represents: DISPUTE,
    },
    ({ ctx, params, body }) => openDispute(ctx, params.id, body),
  );
}

/** The audit trail of one deal for whoever sees it (GET /audit-events is admin-only). */
function historyRoute(app: App): void {
  declareRoutes(app, tags).list(
    {
      path: "/deals/:id/history",
      scope: "read",
      summary: "A deal's history",
      description:
        "The audit events about this deal: its own (deal.create, deal.approve, …), its disputes' (dispute.open, " +
        "dispute.resolve) and its commission lines' (commission.adjust; only the lines of people the caller sees, " +
        "who then sees no deal.adjust: its deal-wide total would tell of others' adjustments). " +
        "Visible exactly when the deal is (404 otherwise); before/after as GET /audit-events gives them, secrets " +
        "removed. Newest first (created_at desc, id desc).",
      params: IdParams,
      query: DealHistoryQuery,
      item: AuditEvent,
    },
    ({ ctx, params, query }) => dealHistory(ctx, params.id, query),
  );
}

function writeRoutes(app: App): void {
  const deals = dealRecords(app);
  deals.create(
    {
      summary: "Create a deal",
      description:
        "Creates a pending deal and calculates it: the response carries its lines and total_commission. currency " +
        "defaults to USD, deal_type to new_business, splits to the owner at 100 (following owner_id until splits " +
        `are given). Later deals of the same periods are recalculated. ${NO_PLAN}`,
      body: CreateDealBody,
    },
    ({ ctx, body }) => createDeal(ctx, body),
  );

  deals.update(
    {
      summary: "Update a deal",
      description:
        "Pending and rejected deals only (409 invalid_transition otherwise); editing a rejected deal resubmits it as " +
        "pending. Merges: omitted fields stay; splits: null goes back to the owner at 100.",
      body: UpdateDealBody,
    },
    updateDeal,
  );

  deals.remove(
    {
      summary: "Delete a deal",
      description:
        "Pending and rejected deals only (409 invalid_transition otherwise). A deal that has ever had an adjustment " +
        "line (POST /commissions/adjustments; void ones included) → 409 conflict naming them: money records are never " +
        "deleted, and the lines stay readable. The deals it preceded are recalculated. Emits deal.deleted carrying the " +
        "deal as it was.",
      response: NoContent,
    },
    deleteDeal,
  );
}

/** The preview prices a deal body: it validates like POST /deals, so it lives with the deals. */
function previewRoute(app: App): void {
  declareRoutes(app, ["Commissions"]).post(
    {
      path: "/commissions/preview",
      scope: "read",
      roles: MAY.preview,
      summary: "Preview a deal's commissions",
      operationId: "previewCommission",
      description:
        "The lines a deal body would earn if created now (same validation as POST /deals), persisting nothing. " +
        "plan_id tries that plan (a draft too) for every credited user, as if assigned to it and active; their " +
        "other deals of the period are priced under it too. deal_id prices an edit of that deal as PATCH would: its " +
        "stored values leave the periods and these take its place.",
      body: PreviewBody,
      response: Preview,
    },
    ({ ctx, body }) => previewDeal(ctx, body),
  );
}

/** The CRM sync paths: upsert one deal or up to 1,000 by external_id. */
function syncRoutes(app: App): void {
  app.put(
    "/deals/by-external-id/:external_id",
    {
      config: {
        scope: "write",
        roles: MAY.write,
        ifMatch: { read: (ctx, p) => getDealByExternalId(ctx, p.external_id!), schema: DealDetail },
        represents: { path: `${app.prefix}/deals/:id`, schema: DealDetail },
      },
      schema: {
        tags,
        summary: "Upsert a deal by external id",
        description:
          "Creates (201) or updates (200) the deal with this CRM id; the body replaces the writable fields whole " +
          "(omitted ones take their defaults; external_id in the body, if any, must equal the path's). A body equal " +
          "to the stored deal is a 200 no-op in any status; one that would change an approved, disputed or paid " +
          "deal is 409 invalid_transition. Updating a rejected deal resubmits it as pending.",
        params: ExternalIdParams,
        body: CreateDealBody,
        response: { 200: DealDetail, 201: DealDetail },
      },
    },
    async (req, reply) => {
      const { created, deal } = await upsertDeal(req.ctx, req.params.external_id, req.body);
      return reply.code(created ? 201 : 200).send(deal);
    },
  );

  declareRoutes(app, tags).post(
    {
      path: "/deals/bulk",
      scope: "write",
      summary: "Upsert deals in bulk",
      description:
        "Up to 1,000 deals, each with its external_id, upserted as PUT /deals/by-external-id does, in one " +
        "transaction: all or nothing. 422 names each failing item by index (deals[3].arr_amount); a change to a " +
        "locked deal is 409 invalid_transition naming it. data lists the deals in input order (without lines); " +
        "meta counts created, updated and unchanged.",
      body: BulkBody,
      bodyInPieces: { envelope: BulkEnvelope, key: "deals", item: BulkItem },
      response: BulkResult,
    },
    ({ ctx, body }) => bulkUpsert(ctx, body),
  );
}

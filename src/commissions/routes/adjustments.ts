import { MAY } from "../../access/index.js";
import type { Ctx } from "../../context.js";
import { declareRoutes } from "../../declare-routes.js";
import type { App } from "../../http/types.js";
import { Commission, CreateAdjustmentBody } from "../schema.js";

/**
 * POST /commissions/adjustments. Its service changes a deal's total, so it lives with the deal workflow
 * (deals/adjust.ts, a floor above): the deals feature passes it in when it declares its routes.
 */
export function adjustmentRoutes(
  app: App,
  createAdjustment: (ctx: Ctx, input: CreateAdjustmentBody) => Promise<Commission>,
): void {
  declareRoutes(app, ["Commissions"]).create(
    {
      path: "/commissions/adjustments",
      scope: "admin",
      roles: MAY.adjust,
      summary: "Create an adjustment",
      description:
        "Adds a manual `adjustment` line to a deal for one user: a signed `amount` (negative claws back) in " +
        "`currency` (default: the currency of the user's plan line on the deal, else the deal's; at most its minor " +
        "units' decimals, else 422), a " +
        "required `reason`, an optional `period` (default: the period of the user's plan in force today for the " +
        "deal's currency, else today's calendar quarter). The line is created `approved` and locked: no " +
        "recalculation changes it; it counts in the deal's total_commission and the user's statement " +
        "(`totals.adjustment`), never in attainment or caps. Its explanation names the reason and the author " +
        "(key id and name, or owner-cli). `user_id` must be the deal's owner or one of its credited users, so a " +
        "mistyped id cannot pay someone unrelated to the deal (422 naming user_id); an unknown deal_id or " +
        "user_id → 422 naming it. Any deal status but rejected takes one (a rejected deal → 409 " +
        "invalid_transition; edit it to resubmit it first): marking the deal paid later marks the line `paid`; " +
        "on a paid deal it stays `approved` (still to pay); rejecting a pending deal later voids it with the " +
        "deal's other lines. Emits `commission.calculated` (previous_amount null) and writes audit rows " +
        "`commission.adjust` and `deal.adjust`.",
      body: CreateAdjustmentBody,
      response: Commission,
      represents: { path: "/commissions/:id", schema: Commission },
    },
    ({ ctx, body }) => createAdjustment(ctx, body),
  );
}

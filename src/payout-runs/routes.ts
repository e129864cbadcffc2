import { z } from "zod";
import { MAY } from "../access/index.js";
import { csvAttachment } from "../commissions/index.js";
import { declareRoutes, type RecordRef } from "../declare-routes.js";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { cancelPayoutRun } from "./cancel.js";
import { createPayoutRun } from "./create.js";
import { GENERIC_HEADER } from "./export-generic.js";
import { exportPayoutRun } from "./export-run.js";
import { finalizePayoutRun } from "./finalize.js";
import { listPayoutRuns } from "./list.js";
import { getPayoutRun } from "./read.js";
import {
  CreatePayoutRunBody,
  ExportPayoutRunQuery,
  ListPayoutRunsQuery,
  PayoutRunDetail,
  PayoutRunSummary,
  RunLinesQuery,
} from "./schema.js";

const RUN: RecordRef = { path: "/payout-runs/:id", schema: PayoutRunDetail };
const WHO = "People: finance and admin.";

export function payoutRunRoutes(app: App): void {
  const route = declareRoutes(app, ["Payout runs"]);

  route.list(
    {
      path: "/payout-runs",
      scope: "read",
      roles: MAY.payoutRuns,
      summary: "List payout runs",
      operationId: "listPayoutRuns",
      description:
        "Newest first (created_at desc, then creation order), without their payees (GET /payout-runs/{id} has them). " +
        `Filters: status (one or comma-separated); currency (runs limited to it, and runs of every currency paying someone in it). ${WHO}`,
      query: ListPayoutRunsQuery,
      item: PayoutRunSummary,
    },
    ({ ctx, query }) => listPayoutRuns(ctx, query),
  );

  route.get(
    {
      path: "/payout-runs/:id",
      scope: "read",
      roles: MAY.payoutRuns,
      summary: "Get a payout run",
      operationId: "getPayoutRun",
      description:
        "The run, its payees (per person and currency, by name, user id, currency) and a page of its lines " +
        `(\`lines\`: page, per_page, user_id, kind; by user, currency, creation date). ${WHO}`,
      params: IdParams,
      query: RunLinesQuery,
      response: PayoutRunDetail,
    },
    ({ ctx, params, query }) => getPayoutRun(ctx, params.id, query),
  );

  route.create(
    {
      path: "/payout-runs",
      scope: "admin",
      roles: MAY.payoutRuns,
      summary: "Create a payout run",
      operationId: "createPayoutRun",
      description:
        "A draft: approved lines in no draft or finalized run, of kind plan, spiff, override, adjustment or clawback, of " +
        "approved, paid or cancelled deals, eligible on or before `through` (plan, spiff, override: the deal's approval " +
        "date; adjustment, clawback: the line's creation date; UTC), in `currency` and of `user_ids` when given; netted " +
        "per person and currency (a negative total becomes a deficit recovered from later runs, at most " +
        "max_recovery_percent of the positive lines). Then draws (API.md §18): each draw period ending on or before " +
        "`through` that no draft or finalized run settled gets a draw line of max(0, amount − earned); recoverable " +
        "balances are recovered after the deficit recovery, oldest draw first. A run may be empty. `through` after today, `pay_date` before " +
        "`through` or an unknown user → 422. Creations take turns. created_by: the person's id (usr_…), the key's id " +
        `(key_…) or \`owner\`. Event payout_run.created. ${WHO}`,
      body: CreatePayoutRunBody,
      response: PayoutRunDetail,
      represents: RUN,
    },
    ({ ctx, body }) => createPayoutRun(ctx, body),
  );

  route.post(
    {
      path: "/payout-runs/:id/finalize",
      scope: "admin",
      roles: MAY.payoutRuns,
      summary: "Finalize a payout run",
      operationId: "finalizePayoutRun",
      description:
        "draft → finalized, in one transaction: deficits and draw settlements recomputed against the runs finalized by " +
        "then (its draw lines are written again; the other lines never change), the lines become paid, and each approved deal whose non-void lines are all paid becomes paid " +
        "(deal.paid); cancelled deals stay cancelled. Event payout_run.finalized (the run without payees). Any other " +
        `status → 409 invalid_transition; of concurrent finalizes and cancels one wins, the rest get 409. ${WHO}`,
      params: IdParams,
      body: EmptyBody,
      response: PayoutRunDetail,
      represents: RUN,
    },
    ({ ctx, params }) => finalizePayoutRun(ctx, params.id),
  );

  route.post(
    {
      path: "/payout-runs/:id/cancel",
      scope: "admin",
      roles: MAY.payoutRuns,
      summary: "Cancel a payout run",
      operationId: "cancelPayoutRun",
      description:
        "draft → cancelled: its lines are released for a later run, its draw lines voided and its draw periods unsettled. Event payout_run.cancelled. Any other status → 409 " +
        `invalid_transition. ${WHO}`,
      params: IdParams,
      body: EmptyBody,
      response: PayoutRunDetail,
      represents: RUN,
    },
    ({ ctx, params }) => cancelPayoutRun(ctx, params.id),
  );

  app.get(
    "/payout-runs/:id/export",
    {
      config: { scope: "read", roles: MAY.payoutRuns },
      schema: {
        tags: ["Payout runs"],
        summary: "Export a finalized payout run",
        operationId: "exportPayoutRun",
        description:
          "CSV whatever Accept says (RFC 4180, CRLF, plain amounts with the currency's minor-unit decimals), as an " +
          "attachment. A draft or cancelled run → 409 invalid_transition; another format's parameter → 422. " +
          `\`generic\` (default): UTF-8 BOM, text cells formula-safe as the commission CSV's, a row per payee (by name, user ` +
          `id, currency), header \`${GENERIC_HEADER.join(",")}\`. \`adp\` (no BOM, file PR{co_code}EPI.csv): ` +
          "`Co Code,Batch ID,File #,Earnings 3 Code,Earnings 3 Amount`, a row per payee with net_pay > 0, File # = " +
          "payroll_id (missing → 422 naming each user); with bonus_earnings_code the bonus part (min(max(spiff, 0), " +
          "net_pay)) on its own row. `gusto` (no BOM): `first_name,last_name,gusto_employee_id,commission,bonus`, payees " +
          "with net_pay > 0, the name split at its first space, bonus = min(max(spiff, 0), net_pay). adp and gusto pay " +
          `one currency: \`currency\`, by default the run's only one (required when it has several). ${WHO}`,
        params: IdParams,
        querystring: ExportPayoutRunQuery,
        response: {
          200: {
            description: "The run as CSV.",
            content: { "text/csv": { schema: z.string().describe("RFC 4180 CSV, UTF-8 (generic: with a BOM).") } },
          },
        },
      },
    },
    async (req, reply) => {
      const { filename, text } = await exportPayoutRun(req.ctx, req.params.id, req.query);
      reply.header("Content-Disposition", csvAttachment(filename));
      return reply.type("text/csv; charset=utf-8").send(text);
    },
  );
}

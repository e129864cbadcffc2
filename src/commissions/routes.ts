import type { FastifyReply } from "fastify";
import { MAY } from "../access/index.js";
import { declareRoutes } from "../declare-routes.js";
import { IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { wantsCsv } from "./csv.js";
import { csvRoutes, sendCommissionsCsv, sendStatementCsv } from "./csv-routes.js";
import { listPayouts } from "./payouts.js";
import {
  Commission,
  ListCommissionsQuery,
  ListPayoutsQuery,
  PayoutGroup,
  Statement,
  StatementQuery,
} from "./schema.js";
import * as service from "./service.js";
import { getStatement } from "./statement.js";

const tags = ["Commissions"];

/** The JSON operations still answer `Accept: text/csv` (API.md §4); the document points at the CSV operations. */
const ALSO_CSV = (operation: string) =>
  `The same lines as CSV: ${operation}. Kept for the clients that use it, \`Accept: text/csv\` here answers that ` +
  "CSV too (any other Accept gets JSON; responses carry `Vary: Accept`).";

export function commissionRoutes(app: App): void {
  app.get(
    "/commissions",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "List commission lines",
        operationId: "listCommissions",
        description: `Newest first (created_at desc, id desc). ${ALSO_CSV("GET /commissions.csv, every matching line")}`,
        querystring: ListCommissionsQuery,
        response: { 200: listOf(Commission) },
      },
    },
    async (req, reply) => {
      reply.header("Vary", "Accept");
      if (wantsCsv(req.headers.accept)) {
        const { page: _page, per_page: _perPage, ...filters } = req.query;
        return sendCommissionsCsv(req, reply as FastifyReply, filters);
      }
      return pageReply(req, reply, await service.listCommissions(req.ctx, req.query));
    },
  );

  declareRoutes(app, tags).getById(
    {
      path: "/commissions/:id",
      scope: "read",
      summary: "Get a commission line",
      operationId: "getCommission",
      response: Commission,
    },
    service.getCommission,
  );

  app.get(
    "/users/:id/statement",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "Get a user's statement",
        description:
          "The user's non-void lines whose period equals `period` (YYYY-MM, YYYY-Qn or YYYY), in deal order; per " +
          `plan: attainment and the terms of its latest line's version; totals by kind and status. ${ALSO_CSV("GET /users/{id}/statement.csv")}`,
        params: IdParams,
        querystring: StatementQuery,
        response: { 200: Statement },
      },
    },
    async (req, reply) => {
      reply.header("Vary", "Accept");
      if (wantsCsv(req.headers.accept))
        return sendStatementCsv(req, reply as FastifyReply, req.params.id, req.query.period);
      return getStatement(req.ctx, req.params.id, req.query.period);
    },
  );

  app.get(
    "/payouts",
    {
      config: { scope: "read", roles: MAY.readPayouts },
      schema: {
        tags,
        summary: "List what is approved and not yet paid, by payee and period",
        operationId: "listPayouts",
        description:
          "Approved, unpaid lines (of approved and disputed deals, and adjustments) by user, period and deal currency, " +
          "with exact totals. Ordered by user name, user id, period, currency. People: finance and admin only.",
        querystring: ListPayoutsQuery,
        response: { 200: listOf(PayoutGroup) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listPayouts(req.ctx, req.query)),
  );

  csvRoutes(app);
}

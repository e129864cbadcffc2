import type { FastifyReply } from "fastify";
import { MAY } from "../../access/index.js";
import { declareRoutes } from "../../declare-routes.js";
import { IdParams } from "../../http/input-fields.js";
import { pageReply } from "../../http/list-reply.js";
import { listOf } from "../../http/pagination.js";
import type { App } from "../../http/types.js";
import {
  CSV_FORMAT,
  csvResponse,
  getCommission,
  getStatement,
  listCommissions,
  listPayouts,
  listPeriods,
  listTeamStatements,
  sendCommissionsCsv,
  sendStatementCsv,
  wantsCsv,
} from "../lines/index.js";
import {
  Commission,
  ExportCommissionsQuery,
  ListCommissionsQuery,
  ListPayoutsQuery,
  ListPeriodsQuery,
  PayoutGroup,
  PeriodSummary,
  Statement,
  StatementQuery,
  TeamStatement,
  TeamStatementsQuery,
} from "../schema.js";

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
      return pageReply(req, reply, await listCommissions(req.ctx, req.query));
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
    getCommission,
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
          "plan: attainment and the terms of its latest line's version; totals by kind and status in one currency " +
          "(`currency`: the query's, else the person's plan's in the period) and totals_by_currency (API.md §15: no " +
          `total adds two currencies; an unknown code → 422). ${ALSO_CSV("GET /users/{id}/statement.csv")}`,
        params: IdParams,
        querystring: StatementQuery,
        response: { 200: Statement },
      },
    },
    async (req, reply) => {
      reply.header("Vary", "Accept");
      if (wantsCsv(req.headers.accept)) return sendStatementCsv(req, reply as FastifyReply, req.params.id, req.query);
      return getStatement(req.ctx, req.params.id, req.query.period, req.query.currency);
    },
  );

  app.get(
    "/users/statements",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "List people with their statement's numbers",
        operationId: "listTeamStatements",
        description:
          "One row per person GET /users lists (the same visibility: a rep sees themself, a manager themself and " +
          "their subtree, finance and admins everyone; the same filters, order and pages), with the plans, totals " +
          "and by_status GET /users/{id}/statement gives for `period`, or for each person's own plan period on the date " +
          "`on` (its lines are left out; `deals` counts their plan lines' deals). A page costs a " +
          "fixed number of reads, whatever per_page is: a team's summary in one request per page of people.",
        querystring: TeamStatementsQuery,
        response: { 200: listOf(TeamStatement) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listTeamStatements(req.ctx, req.query)),
  );

  app.get(
    "/users/:id/periods",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "List the periods a user has commission lines in",
        operationId: "listUserPeriods",
        description:
          "Each period (YYYY-MM, YYYY-Qn or YYYY) the user has non-void lines in, with their count and sums by " +
          "status, and the period of the user's plan in force today (`current`; listed even without lines): where " +
          "a statement can be opened, and what is still pending or unpaid from earlier periods. Newest first (by " +
          "the period's last day, then month, quarter, year). Who may read it: as GET /users/{id}/statement.",
        params: IdParams,
        querystring: ListPeriodsQuery,
        response: { 200: listOf(PeriodSummary) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listPeriods(req.ctx, req.params.id, req.query)),
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
          "Approved, unpaid lines (of approved and disputed deals, and adjustments) by user, period and line currency " +
          "(API.md §15: a group never adds two currencies), " +
          "with exact totals. Ordered by user name, user id, period, currency. People: finance and admin only.",
        querystring: ListPayoutsQuery,
        response: { 200: listOf(PayoutGroup) },
      },
    },
    async (req, reply) => pageReply(req, reply, await listPayouts(req.ctx, req.query)),
  );

  csvRoutes(app);
}

/**
 * The CSV exports as operations of their own: their one 200 is `text/csv`, so a client generated from
 * the document reads text (a generator that parses every body as JSON cannot tell an `Accept` apart).
 * `Accept: text/csv` on the JSON operations still answers the same CSV, for the clients that use it.
 */
function csvRoutes(app: App): void {
  app.get(
    "/commissions.csv",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "Export commission lines as CSV",
        operationId: "exportCommissionsCsv",
        description: `Every line GET /commissions would list with these filters (newest first, not paginated), streamed as ${CSV_FORMAT}`,
        querystring: ExportCommissionsQuery,
        response: { 200: csvResponse("The lines as CSV.") },
      },
    },
    (req, reply) => sendCommissionsCsv(req, reply, req.query),
  );

  app.get(
    "/users/:id/statement.csv",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "Export a user's statement as CSV",
        operationId: "exportUserStatementCsv",
        description: `The lines of GET /users/{id}/statement for \`period\`, in deal order, as ${CSV_FORMAT}`,
        params: IdParams,
        querystring: StatementQuery,
        response: { 200: csvResponse("The statement's lines as CSV.") },
      },
    },
    (req, reply) => sendStatementCsv(req, reply, req.params.id, req.query),
  );
}

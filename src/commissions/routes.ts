import type { FastifyReply } from "fastify";
import { MAY } from "../access/index.js";
import { declareRoutes } from "../declare-routes.js";
import { matchesIfNoneMatch } from "../http/etag.js";
import { IdParams } from "../http/input-fields.js";
import { pageReply } from "../http/list-reply.js";
import { listOf } from "../http/pagination.js";
import type { App } from "../http/types.js";
import { csvAttachment, csvText, wantsCsv } from "./csv.js";
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

const CSV =
  "With `Accept: text/csv` the response is CSV (RFC 4180, CRLF line ends, amounts with 2 decimals) with the header " +
  "`id,deal_id,user_id,kind,period,amount,status,plan_id,spiff_id,calculated_at,explanation_summary`; " +
  "any other Accept gets JSON. Responses carry `Vary: Accept`. The CSV opens with a UTF-8 byte order mark (so " +
  "spreadsheets read it as UTF-8; parse it BOM-aware), comes as an attachment (`Content-Disposition`) with an `ETag`, " +
  "and a text cell starting with `=`, `+`, `-`, `@`, TAB or CR is prefixed with `'` so no spreadsheet runs it as a " +
  "formula (OWASP); `amount` is a number and never prefixed.";

export function commissionRoutes(app: App): void {
  app.get(
    "/commissions",
    {
      config: { scope: "read", roles: MAY.read },
      schema: {
        tags,
        summary: "List commission lines",
        operationId: "listCommissions",
        description: `Newest first (created_at desc, id desc). ${CSV} The CSV holds every matching line (page and per_page are ignored), streamed.`,
        querystring: ListCommissionsQuery,
        response: { 200: listOf(Commission) },
      },
    },
    async (req, reply) => {
      reply.header("Vary", "Accept");
      if (wantsCsv(req.headers.accept)) {
        const etag = await service.exportEtag(req.ctx, req.query);
        reply.header("ETag", etag);
        if (matchesIfNoneMatch(req.headers["if-none-match"], etag)) return (reply as FastifyReply).code(304).send();
        reply.header("Content-Disposition", csvAttachment("commissions"));
        return reply.type("text/csv; charset=utf-8").send(service.exportCommissions(req.ctx, req.query) as never);
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
          `plan: attainment and the terms of its latest line's version; totals by kind and status. ${CSV}`,
        params: IdParams,
        querystring: StatementQuery,
        response: { 200: Statement },
      },
    },
    async (req, reply) => {
      reply.header("Vary", "Accept");
      const statement = await getStatement(req.ctx, req.params.id, req.query.period);
      if (wantsCsv(req.headers.accept)) {
        reply.header("Content-Disposition", csvAttachment(`statement-${req.params.id}-${req.query.period}`));
        return reply.type("text/csv; charset=utf-8").send(csvText(statement.lines) as never);
      }
      return statement;
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
}

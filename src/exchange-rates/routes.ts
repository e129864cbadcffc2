import { z } from "zod";
import { rolesOfScope } from "../context.js";
import { declareRoutes } from "../declare-routes.js";
import type { App } from "../http/types.js";
import { deleteExchangeRates } from "./delete.js";
import { listExchangeRates } from "./list.js";
import { putExchangeRates } from "./put.js";
import { getExchangeRates } from "./read.js";
import {
  BaseQuery,
  ExchangeRateSet,
  ExchangeRateSetWritten,
  ListRatesQuery,
  PutRatesBody,
  RatesParams,
} from "./schema.js";

const tags = ["Exchange rates"];
const NoContent = z
  .null()
  .describe("No body. `Recalculation-Job-Id: job_…` when the change started a background recalculation.");

/** The URL of one day's set for one base: what a 201's Location names. */
const setPath = (prefix: string, r: Record<string, unknown>) =>
  `${prefix}/exchange-rates/${String(r.date)}?base=${encodeURIComponent(String(r.base))}`;

export function exchangeRateRoutes(app: App): void {
  const route = declareRoutes(app, tags);
  route.list(
    {
      path: "/exchange-rates",
      scope: "read",
      summary: "List exchange rates",
      operationId: "listExchangeRates",
      description: "Rate sets, newest date first, then by base (API.md §15); filter by date and base.",
      query: ListRatesQuery,
      item: ExchangeRateSet,
    },
    ({ ctx, query }) => listExchangeRates(ctx, query),
  );

  route.get(
    {
      path: "/exchange-rates/:date",
      scope: "read",
      summary: "Get one day's exchange rates for a base",
      operationId: "getExchangeRates",
      description:
        "The set PUT wrote for this date and base; 404 when there is none. Its ETag is what If-Match on PUT takes.",
      params: RatesParams,
      query: BaseQuery,
      response: ExchangeRateSet,
    },
    ({ ctx, params, query }) => getExchangeRates(ctx, params.date, query.base),
  );

  app.put(
    "/exchange-rates/:date",
    {
      config: {
        scope: "admin",
        roles: rolesOfScope("admin"),
        ifMatch: {
          read: (ctx, p, parts) => getExchangeRates(ctx, p.date!, (parts.body as PutRatesBody).base),
          schema: ExchangeRateSet,
        },
        represents: {
          path: `${app.prefix}/exchange-rates/:date`,
          schema: ExchangeRateSet,
          locate: (r) => setPath(app.prefix, r),
        },
      },
      schema: {
        tags,
        summary: "Put one day's exchange rates for a base",
        operationId: "putExchangeRates",
        description:
          "1 base = rate units of each code (API.md §15). Replaces the whole set of this date and base: 201 when " +
          "new, 200 when replaced. Rates are decimal strings > 0 with at most 12 integer digits and 10 decimals, " +
          '1 to 200 codes, never the base; they are stored exactly and answered in plain form ("0.920" → "0.92"). ' +
          "Pending deals closing from this date to 31 days later are recalculated (recalculation_job_id when in the " +
          "background). Admins; keys: admin scope.",
        params: RatesParams,
        body: PutRatesBody,
        response: { 200: ExchangeRateSetWritten, 201: ExchangeRateSetWritten },
      },
    },
    async (req, reply) => {
      const { created, set } = await putExchangeRates(req.ctx, req.params.date, req.body);
      return reply.code(created ? 201 : 200).send(set);
    },
  );

  route.delete(
    {
      path: "/exchange-rates/:date",
      scope: "admin",
      summary: "Delete one day's exchange rates for a base",
      operationId: "deleteExchangeRates",
      description:
        "`base` is required (422 without it); 404 when there is no such set. Pending deals closing from this date " +
        "to 31 days later are recalculated. Admins; keys: admin scope.",
      params: RatesParams,
      query: BaseQuery,
      response: NoContent,
    },
    ({ ctx, params, query }) => deleteExchangeRates(ctx, params.date, query.base),
  );
}

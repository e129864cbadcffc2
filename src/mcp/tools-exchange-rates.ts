import {
  ExchangeRateSet,
  ExchangeRateSetWritten,
  ListRatesQuery,
  listExchangeRates,
  PutRatesArguments,
  putExchangeRates,
} from "../exchange-rates/index.js";
import { listOf } from "../http/pagination.js";
import { defineTool, type McpTool, READ_ONLY, READS, UPDATES } from "./tool.js";

/** Exchange rates (API.md §15): read them, and an admin's day of rates for one base. */
export const EXCHANGE_RATE_TOOLS: readonly McpTool[] = [
  defineTool({
    name: "list_exchange_rates",
    title: "List exchange rates",
    description: `As GET /api/v1/exchange-rates: {date, base, rates}, 1 base = rates[code] of code. ${READ_ONLY}`,
    scope: "read",
    access: "read",
    input: ListRatesQuery,
    output: listOf(ExchangeRateSet),
    annotations: READS,
    run: (ctx, args) => listExchangeRates(ctx, args),
  }),
  defineTool({
    name: "put_exchange_rates",
    title: "Put one day's exchange rates",
    description:
      "As PUT /api/v1/exchange-rates/{date}: replaces that day's set for the base. Locked lines never change.",
    scope: "admin",
    access: "admin",
    input: PutRatesArguments,
    output: ExchangeRateSetWritten,
    annotations: UPDATES,
    run: async (ctx, { date, ...body }) => (await putExchangeRates(ctx, date, body)).set,
  }),
];

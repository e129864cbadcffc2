import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type ExchangeRateSet = Schemas["ExchangeRateSet"];

/** A page of rate sets, newest date first, then by base (API.md §15). */
export const exchangeRatesQuery = defineQuery("GET /api/v1/exchange-rates", (query: QueryOf<"listExchangeRates">) =>
  queryOptions({
    queryKey: keys.exchangeRates.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/exchange-rates", { params: { query } })),
  }),
);

import { api, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { useWrite } from "../write";

export type PutRatesBody = BodyOf<"putExchangeRates">;

/** Replaces one day's set for a base (201 new, 200 replaced); pending deals it reaches are priced again. */
export function usePutRates() {
  return useWrite("PUT /api/v1/exchange-rates/{date}", ({ date, body }: { date: string; body: PutRatesBody }) =>
    unwrap(api.PUT("/api/v1/exchange-rates/{date}", { params: { path: { date } }, body })),
  );
}

export function useDeleteRates(date: string, base: string) {
  return useWrite("DELETE /api/v1/exchange-rates/{date}", () =>
    unwrap(api.DELETE("/api/v1/exchange-rates/{date}", { params: { path: { date }, query: { base } } })),
  );
}

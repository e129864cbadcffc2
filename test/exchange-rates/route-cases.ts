import { putExchangeRates } from "../../src/exchange-rates/index.js";
import type { TestApp } from "../harness.js";
import type { RouteCase } from "../route-case.js";

/** The security-table rows (test/route-case.ts) of exchange rates (API.md §15): each call on a day of its own. */

let day = 0;
/** A date no other call uses: 1990-01-01 onwards, far from the deals tests close. */
function freshDate(): string {
  const d = new Date(Date.UTC(1990, 0, 1 + day++));
  return d.toISOString().slice(0, 10);
}

const storedDate = async (t: TestApp) => {
  const date = freshDate();
  await putExchangeRates(t.ownerCtx(), date, { base: "USD", rates: { EUR: "0.92" } });
  return date;
};

export const EXCHANGE_RATE_ROUTES: RouteCase[] = [
  {
    method: "GET",
    path: "/api/v1/exchange-rates",
    scope: "read",
    ok: 200,
    invalid: { query: "base=usd", param: "base" },
  },
  {
    method: "GET",
    path: "/api/v1/exchange-rates/{date}",
    scope: "read",
    ok: 200,
    record: storedDate,
    query: "base=USD",
    invalid: { query: "base=US", param: "base" },
  },
  {
    method: "PUT",
    path: "/api/v1/exchange-rates/{date}",
    scope: "admin",
    ok: 201,
    param: freshDate,
    body: () => ({ base: "USD", rates: { EUR: "0.92", GBP: "0.79" } }),
    invalid: { body: { base: "USD", rates: { EUR: 0.92 } }, param: "rates.EUR" },
  },
  {
    method: "DELETE",
    path: "/api/v1/exchange-rates/{date}",
    scope: "admin",
    ok: 204,
    record: storedDate,
    query: "base=USD",
    invalid: { query: "currency=USD", param: "currency" },
  },
];

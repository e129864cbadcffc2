import { createPayoutRun, finalizePayoutRun } from "../../src/payout-runs/index.js";
import type { TestApp } from "../harness.js";
import type { RouteCase } from "../route-case.js";

/** The security-table rows (test/route-case.ts) of payout runs (API.md §13). */

/** A draft run through a day before any test's lines: empty, and taking nothing another test needs. */
export const draftRun = async (t: TestApp) =>
  (await createPayoutRun(t.ownerCtx(), { through: "2020-01-31", pay_date: "2020-02-05" })).id;

const finalizedRun = async (t: TestApp) => (await finalizePayoutRun(t.ownerCtx(), await draftRun(t))).id;

export const PAYOUT_RUN_ROUTES: RouteCase[] = [
  {
    method: "GET",
    path: "/api/v1/payout-runs",
    scope: "read",
    ok: 200,
    invalid: { query: "status=open", param: "status" },
  },
  {
    method: "GET",
    path: "/api/v1/payout-runs/{id}",
    scope: "read",
    ok: 200,
    record: draftRun,
    idPrefix: "prun",
    invalid: { query: "kind=bonus", param: "kind" },
  },
  {
    method: "GET",
    path: "/api/v1/payout-runs/{id}/export",
    scope: "read",
    ok: 200,
    record: finalizedRun,
    idPrefix: "prun",
    invalid: { query: "format=generic&co_code=K7Q", param: "co_code" },
  },
  {
    method: "POST",
    path: "/api/v1/payout-runs",
    scope: "admin",
    ok: 201,
    body: () => ({ through: "2020-01-31", pay_date: "2020-02-05" }),
    invalid: { body: { through: "2020-02-30", pay_date: "2020-03-05" }, param: "through" },
  },
  {
    method: "POST",
    path: "/api/v1/payout-runs/{id}/finalize",
    scope: "admin",
    ok: 200,
    record: draftRun,
    idPrefix: "prun",
    invalid: { body: { now: true }, param: "now" },
  },
  {
    method: "POST",
    path: "/api/v1/payout-runs/{id}/cancel",
    scope: "admin",
    ok: 200,
    record: draftRun,
    idPrefix: "prun",
    invalid: { body: { now: true }, param: "now" },
  },
];

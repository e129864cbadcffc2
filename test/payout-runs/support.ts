import { expect } from "vitest";
import type { Page } from "../../src/http/pagination.js";
import type { PayoutRunDetail, PayoutRunSummary } from "../../src/payout-runs/index.js";
import type { Api } from "../factories-commissions.js";
import { ok } from "../factories-commissions.js";
import type { TestApp } from "../harness.js";

/** Payout-run helpers (API.md §13) over the HTTP API. */

export type Payee = PayoutRunDetail["payees"][number];

export const createRun = async (api: Api, body: Record<string, unknown>) =>
  ok<PayoutRunDetail>(await api.post("/payout-runs", body), 201);
export const finalizeRun = async (api: Api, id: string) =>
  ok<PayoutRunDetail>(await api.post(`/payout-runs/${id}/finalize`));
export const cancelRun = async (api: Api, id: string) =>
  ok<PayoutRunDetail>(await api.post(`/payout-runs/${id}/cancel`));
export const getRun = async (api: Api, id: string, query = "") =>
  ok<PayoutRunDetail>(await api.get(`/payout-runs/${id}${query}`));
export const listRuns = async (api: Api, query = "") =>
  ok<Page<PayoutRunSummary>>(await api.get(`/payout-runs${query}`));

/** Sets the test clock to noon UTC of `date`: "today" for the next requests. */
export function today(t: TestApp, date: string): void {
  t.clock!.ms = Date.parse(`${date}T12:00:00.000Z`);
}

/** The payee of `userId` in the run (one currency). */
export function payeeOf(run: PayoutRunDetail, userId: string): Payee {
  const payee = run.payees.find((p) => p.user_id === userId);
  expect(payee, `a payee ${userId} in ${run.id}`).toBeDefined();
  return payee!;
}

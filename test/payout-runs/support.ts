import { expect } from "vitest";
import type { Page } from "../../src/http/pagination.js";
import { newId } from "../../src/ids.js";
import type { PayoutRunDetail, PayoutRunSummary } from "../../src/payout-runs/index.js";
import type { Api } from "../factories-commissions.js";
import { ok } from "../factories-commissions.js";
import type { TestApp } from "../harness.js";

/** Payout-run helpers (API.md §13) over the HTTP API, and the one fixture that writes a line directly. */

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

/**
 * A clawback line (API.md §14) on a deal: approved and locked, created at noon of `date`. §14's cancel and
 * refund routes are another branch's work; until they merge this fixture writes the line as they would
 * (the integrator switches it to POST /deals/{id}/cancel or /refunds).
 */
export async function insertClawback(
  t: TestApp,
  line: { dealId: string; userId: string; amount: string; date: string },
): Promise<string> {
  const at = new Date(`${line.date}T12:00:00.000Z`);
  const id = newId("com", at.getTime());
  await t.db.db
    .insertInto("commission_lines")
    .values({
      id,
      deal_id: line.dealId,
      user_id: line.userId,
      plan_id: null,
      plan_version: null,
      spiff_id: null,
      kind: "clawback" as never,
      period: line.date.slice(0, 7),
      amount: line.amount,
      status: "approved",
      locked: true,
      // Shaped as an adjustment's explanation until §14's clawback explanation is in the schema.
      explanation: JSON.stringify({
        summary: `Clawback ${line.amount}`,
        reason: "Deal cancelled (test fixture)",
        author: { key_id: null, name: "owner-cli" },
        period: line.date.slice(0, 7),
        amount: Number(line.amount),
      }),
      calculated_at: at,
      created_at: at,
    })
    .execute();
  return id;
}

/** The payee of `userId` in the run (one currency). */
export function payeeOf(run: PayoutRunDetail, userId: string): Payee {
  const payee = run.payees.find((p) => p.user_id === userId);
  expect(payee, `a payee ${userId} in ${run.id}`).toBeDefined();
  return payee!;
}

import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { DealDetail } from "../../src/deals/index.js";
import { approvedDeal, peopleOnPlan, policyOf } from "../clawbacks/support.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey } from "./client.js";

/** API.md §14's tools mirror REST: preview_clawbacks (read), refund_deal and cancel_deal (admin). */

let t: TestApp;
let api: Api;
let origin: string;
const clients: Client[] = [];

async function clientFor(scope: "read" | "admin", grant: "read" | "admin") {
  const client = await connect(origin, (await mcpKey(t, scope, grant)).key);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
  api = new Api(t, "admin");
});
afterAll(async () => {
  for (const client of clients) await client.close();
  await t?.close();
});

it("preview_clawbacks, refund_deal, cancel_deal: the REST bodies; a read key cannot cancel", async () => {
  const { users } = await peopleOnPlan(api, policyOf({ percent: 50 }));
  const deal = await approvedDeal(api, users[0]!.id, { close_date: "2026-01-15" });
  const reader = await clientFor("read", "read");
  const admin = await clientFor("admin", "admin");
  const preview = await call(reader, "preview_clawbacks", {
    id: deal.id,
    type: "refund",
    effective_date: "2026-02-01",
    amount: 2500,
  });
  expect(preview.isError, JSON.stringify(preview.content)).toBeFalsy();
  expect((preview.structuredContent as { lines: { amount: number }[] }).lines.map((l) => l.amount)).toEqual([-125]);
  expect(
    errorIn(await call(reader, "preview_clawbacks", { id: deal.id, type: "refund", effective_date: "2026-02-01" })),
  ).toMatchObject({
    code: "validation_error",
  });
  expect((await call(reader, "cancel_deal", { id: deal.id, reason: "x", effective_date: "2026-02-01" })).isError).toBe(
    true,
  );
  const refunded = await call(admin, "refund_deal", { id: deal.id, amount: 2500, effective_date: "2026-02-01" });
  expect(refunded.structuredContent).toMatchObject({ deal_id: deal.id, amount: 2500, reason: null });
  const cancelled = await call(admin, "cancel_deal", { id: deal.id, reason: "churned", effective_date: "2026-02-02" });
  expect(cancelled.structuredContent).toMatchObject({ status: "cancelled", total_commission: 500 });
  const { clawback_summary: _summary, ...detail } = cancelled.structuredContent as DealDetail & {
    clawback_summary: unknown;
  };
  expect(detail).toEqual(ok<DealDetail>(await api.get(`/deals/${deal.id}`)));
});

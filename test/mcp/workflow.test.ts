import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/index.js";
import type { DealDetail } from "../../src/deals/index.js";
import type { Dispute } from "../../src/disputes/index.js";
import { TOOLS } from "../../src/mcp/tools.js";
import { Api, createDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey, namesUpTo } from "./client.js";

let t: TestApp;
let api: Api;
let rep: { id: string };
let origin: string;
const clients: Client[] = [];

async function clientFor(scope: "write" | "admin", grant: "write" | "admin") {
  const client = await connect(origin, (await mcpKey(t, scope, grant)).key);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
  api = new Api(t, "admin");
  ({ user: rep } = await repOnPlan(api));
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await t?.close();
});

/** API.md §13's admin tools (test/payout-runs/mcp.test.ts calls them). */
const PAYOUT_RUN_WRITES = ["cancel_payout_run", "create_payout_run", "finalize_payout_run"];
const WORKFLOW = ["approve_deal", "create_adjustment", "mark_deal_paid", "reject_deal", "resolve_dispute"];

describe("deal workflow tools", () => {
  it("are admin tools: listed only for admin keys granted admin, with their annotations", () => {
    expect(namesUpTo("write").filter((n) => WORKFLOW.includes(n))).toEqual([]);
    expect(namesUpTo("admin").filter((n) => WORKFLOW.includes(n))).toEqual(WORKFLOW);
    for (const name of WORKFLOW) {
      const row = TOOLS.find((r) => r.name === name)!;
      expect([row.scope, row.access, row.annotations.readOnlyHint]).toEqual(["admin", "admin", false]);
      expect(row.description).toMatch(/never|not|no /);
    }
    expect(TOOLS.find((r) => r.name === "reject_deal")!.annotations.destructiveHint).toBe(true);
    expect(namesUpTo("write")).toContain("open_dispute");
    expect(
      namesUpTo("admin")
        .filter((n) => !namesUpTo("write").includes(n))
        .sort(),
    ).toEqual(
      [
        ...WORKFLOW,
        ...PAYOUT_RUN_WRITES,
        "preview_plan_change",
        "cancel_deal",
        "refund_deal",
        "put_exchange_rates",
        "create_draw",
        "end_draw",
        "forgive_draw",
        "list_notification_deliveries",
      ].sort(),
    );
  });

  it("open_dispute (write) then resolve_dispute (admin) mirror REST", async () => {
    const writer = await clientFor("write", "write");
    const admin = await clientFor("admin", "admin");
    const deal = await createDeal(api, rep.id);
    ok<DealDetail>(await api.post(`/deals/${deal.id}/approve`));
    const opened = await call(writer, "open_dispute", { id: deal.id, reason: "wrong_amount", expected_amount: 1100 });
    expect(opened.isError, JSON.stringify(opened.content)).toBeFalsy();
    const dispute = opened.structuredContent as { id: string };
    expect(dispute).toEqual(ok<Dispute>(await api.get(`/disputes/${dispute.id}`)));
    const resolved = await call(admin, "resolve_dispute", { id: dispute.id, outcome: "approved" });
    expect(resolved.structuredContent).toMatchObject({ status: "resolved", resolved_amount: 1100 });
    expect(ok<DealDetail>(await api.get(`/deals/${deal.id}`))).toMatchObject({
      status: "approved",
      total_commission: 1100,
    });
  });

  it("approve_deal then mark_deal_paid return the REST deal and write the audit rows", async () => {
    const admin = await clientFor("admin", "admin");
    const deal = await createDeal(api, rep.id);
    const approved = await call(admin, "approve_deal", { id: deal.id });
    expect(approved.isError, JSON.stringify(approved.content)).toBeFalsy();
    expect(approved.structuredContent).toEqual(ok<DealDetail>(await api.get(`/deals/${deal.id}`)));
    expect(approved.structuredContent).toMatchObject({ status: "approved" });
    const again = errorIn(await call(admin, "approve_deal", { id: deal.id }));
    expect(again).toMatchObject({ code: "invalid_transition" });
    const paid = await call(admin, "mark_deal_paid", { id: deal.id });
    expect(paid.structuredContent).toMatchObject({ status: "paid" });
    const rows = await t.db.db
      .selectFrom("audit_events")
      .select("action")
      .where("resource_id", "=", deal.id)
      .orderBy("id")
      .execute();
    expect(rows.map((r) => r.action)).toEqual(["deal.create", "deal.approve", "deal.mark_paid"]);
  });

  it("reject_deal needs a reason and voids the lines", async () => {
    const admin = await clientFor("admin", "admin");
    const deal = await createDeal(api, rep.id);
    expect(errorIn(await call(admin, "reject_deal", { id: deal.id })).code).toBe("validation_error");
    const rejected = await call(admin, "reject_deal", { id: deal.id, reason: "duplicate" });
    expect(rejected.structuredContent).toMatchObject({ status: "rejected", rejection_reason: "duplicate" });
    expect((rejected.structuredContent as DealDetail).commissions.map((c) => c.status)).toEqual(["void"]);
  });

  it("create_adjustment mirrors POST /commissions/adjustments", async () => {
    const admin = await clientFor("admin", "admin");
    const deal = await createDeal(api, rep.id);
    ok<DealDetail>(await api.post(`/deals/${deal.id}/approve`));
    const args = { deal_id: deal.id, user_id: rep.id, amount: -100.1, reason: "clawback", period: "2026-Q3" };
    const created = await call(admin, "create_adjustment", args);
    expect(created.isError, JSON.stringify(created.content)).toBeFalsy();
    const line = created.structuredContent as { id: string };
    expect(line).toEqual(ok<Commission>(await api.get(`/commissions/${line.id}`)));
    expect(line).toMatchObject({ kind: "adjustment", amount: -100.1, status: "approved", locked: true });
    expect(ok<DealDetail>(await api.get(`/deals/${deal.id}`)).total_commission).toBe(899.9);
    expect(errorIn(await call(admin, "create_adjustment", { ...args, amount: 0 })).code).toBe("validation_error");
  });

  it("an admin key granted only write cannot call them, and nothing changes", async () => {
    const limited = await clientFor("admin", "write");
    const deal = await createDeal(api, rep.id);
    const error = errorIn(await call(limited, "approve_deal", { id: deal.id }));
    expect(error.message).toContain("approve_deal needs mcp_access admin");
    expect(ok<DealDetail>(await api.get(`/deals/${deal.id}`)).status).toBe("pending");
  });
});

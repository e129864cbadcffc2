import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Preview } from "../../src/commissions/index.js";
import type { Deal } from "../../src/deals/index.js";
import type { Page } from "../../src/http/pagination.js";
import type { SpiffWritten } from "../../src/spiffs/testing.js";
import { createJob, unique } from "../factories.js";
import { Api, approveAsOwner, createDeal, dealBody, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { call, connect, errorIn, listen, mcpKey } from "./client.js";

let t: TestApp;
let api: Api;
let reader: Client;
let writer: Client;
let rep: { id: string };
let plan: { id: string };
let deals: { id: string; commissions: { id: string }[] }[];
let spiff: { id: string };
let dispute: { id: string };
let job: { id: string };
let origin: string;
const clients: Client[] = [];

async function clientFor(scope: "read" | "write", grant: "read" | "write") {
  const client = await connect(origin, (await mcpKey(t, scope, grant)).key);
  clients.push(client);
  return client;
}

beforeAll(async () => {
  t = await createTestApp();
  origin = await listen(t);
  api = new Api(t, "admin");
  ({ user: rep, plan } = await repOnPlan(api));
  spiff = ok<SpiffWritten>(
    await api.post("/spiffs", {
      name: unique("Q3 push"),
      starts_on: "2026-07-01",
      ends_on: "2026-09-30",
      payout: { type: "flat", amount: 250 },
    }),
    201,
  );
  deals = [];
  for (const arr of [12000, 30000, 8000]) deals.push(await createDeal(api, rep.id, { arr_amount: arr }));
  await approveAsOwner(t, deals[2]!.id);
  dispute = ok<{ id: string }>(await api.post(`/deals/${deals[2]!.id}/disputes`, { reason: "wrong_amount" }), 201);
  job = await createJob(t);
  reader = await clientFor("read", "read");
  // Listed first, so the SDK's client checks each result's structuredContent against its outputSchema.
  await reader.listTools();
  writer = await clientFor("write", "write");
});

afterAll(async () => {
  for (const client of clients) await client.close();
  await t?.close();
});

/** The REST body of a GET, for comparison with a tool's structuredContent. */
async function rest<T>(url: string): Promise<T> {
  return ok<T>(await api.get(url));
}

/** tool, its arguments, the REST GET it mirrors (thunks: the records exist only after beforeAll). */
const READ_CASES: [string, () => Record<string, unknown>, () => string][] = [
  [
    "list_deals",
    () => ({ owner_id: rep.id, sort: "-arr_amount", per_page: 2 }),
    () => `/deals?owner_id=${rep.id}&sort=-arr_amount&per_page=2`,
  ],
  ["list_deals", () => ({ status: "pending,approved", q: "Deal" }), () => "/deals?status=pending,approved&q=Deal"],
  ["get_deal", () => ({ id: deals[0]!.id }), () => `/deals/${deals[0]!.id}`],
  ["list_comp_plans", () => ({ status: "active" }), () => "/comp-plans?status=active"],
  ["get_comp_plan", () => ({ id: plan.id }), () => `/comp-plans/${plan.id}`],
  [
    "list_commissions",
    () => ({ deal_id: deals[1]!.id, kind: "plan,spiff" }),
    () => `/commissions?deal_id=${deals[1]!.id}&kind=plan,spiff`,
  ],
  [
    "get_commission",
    () => ({ id: deals[1]!.commissions[0]!.id }),
    () => `/commissions/${deals[1]!.commissions[0]!.id}`,
  ],
  ["list_spiffs", () => ({ active: "true" }), () => "/spiffs?active=true"],
  ["list_spiffs", () => ({ active: true }), () => "/spiffs?active=true"],
  ["list_spiffs", () => ({ active: false }), () => "/spiffs?active=false"],
  ["list_users", () => ({ active: true, role: "rep" }), () => "/users?active=true&role=rep"],
  [
    "list_disputes",
    () => ({ status: "open", deal_id: deals[2]!.id }),
    () => `/disputes?status=open&deal_id=${deals[2]!.id}`,
  ],
  ["get_dispute", () => ({ id: dispute.id }), () => `/disputes/${dispute.id}`],
  ["get_job", () => ({ id: job.id }), () => `/jobs/${job.id}`],
  ["get_deal_history", () => ({ id: deals[2]!.id, per_page: 2 }), () => `/deals/${deals[2]!.id}/history?per_page=2`],
  [
    "list_plan_assignments",
    () => ({ id: plan.id, user_id: rep.id }),
    () => `/comp-plans/${plan.id}/assignments?user_id=${rep.id}`,
  ],
  ["get_spiff", () => ({ id: spiff.id }), () => `/spiffs/${spiff.id}`],
  ["get_statement", () => ({ id: rep.id, period: "2026-Q3" }), () => `/users/${rep.id}/statement?period=2026-Q3`],
];

describe("read tools return exactly the REST bodies", () => {
  it.each(READ_CASES)("%s %#", async (name, args, url) => {
    const result = await call(reader, name, args());
    expect(result.isError, JSON.stringify(result.content)).toBeFalsy();
    expect(result.structuredContent).toEqual(await rest(url()));
  });

  it("list_deals returns the deals and the REST meta", async () => {
    const result = await call(reader, "list_deals", { owner_id: rep.id });
    const body = result.structuredContent as { data: { id: string }[]; meta: { total: number } };
    expect(body.data.map((d) => d.id)).toEqual(deals.map((d) => d.id).reverse());
    expect(body.meta).toEqual({ page: 1, per_page: 25, total: 3 });
  });

  it("preview_commission prices a deal as POST /commissions/preview does and persists nothing", async () => {
    const body = dealBody(rep.id, { arr_amount: 50000 });
    const before = await rest<Page<Deal>>(`/deals?owner_id=${rep.id}`);
    const result = await call(reader, "preview_commission", body);
    expect(result.structuredContent).toEqual(ok<Preview>(await api.post("/commissions/preview", body)));
    expect((result.structuredContent as { lines: unknown[] }).lines.length).toBeGreaterThan(0);
    expect((await rest<Page<Deal>>(`/deals?owner_id=${rep.id}`)).meta).toEqual(before.meta);
  });
});

describe("write tools", () => {
  it("create_deal creates a calculated pending deal; GET /deals/{id} returns the same", async () => {
    const result = await call(writer, "create_deal", dealBody(rep.id, { arr_amount: 20000 }));
    const deal = result.structuredContent as { id: string; status: string; total_commission: number; commissions: [] };
    expect(deal).toMatchObject({ status: "pending", owner_id: rep.id, currency: "USD", deal_type: "new_business" });
    expect(deal.commissions.length).toBeGreaterThan(0);
    expect(deal.total_commission).toBeGreaterThan(0);
    expect(await rest(`/deals/${deal.id}`)).toEqual(deal);
  });

  it("update_deal edits and recalculates", async () => {
    const created = await createDeal(api, rep.id, { arr_amount: 1000 });
    const result = await call(writer, "update_deal", { id: created.id, arr_amount: 2000 });
    const deal = result.structuredContent as { arr_amount: number; total_commission: number };
    expect(deal.arr_amount).toBe(2000);
    expect(deal.total_commission).toBeGreaterThan(created.total_commission);
  });

  it("upsert_deal creates by external_id, then the same body changes nothing", async () => {
    const externalId = unique("crm");
    const body = { external_id: externalId, ...dealBody(rep.id, { opportunity_name: "Acme renewal" }) };
    const first = (await call(writer, "upsert_deal", body)).structuredContent as { id: string; updated_at: string };
    const second = (await call(writer, "upsert_deal", body)).structuredContent as { id: string; updated_at: string };
    expect(second).toEqual(first);
    expect(await rest(`/deals?external_id=${externalId}`)).toMatchObject({ meta: { total: 1 } });
  });

  it("arguments are checked by the REST schemas; service rules by the service", async () => {
    const money = errorIn(await call(writer, "create_deal", dealBody(rep.id, { arr_amount: 10.123 })));
    expect(money.details).toEqual([{ param: "arr_amount", message: "must have at most 2 decimal places for USD" }]);
    const splits = dealBody(rep.id, { splits: [{ user_id: rep.id, percent: 60 }] });
    expect(errorIn(await call(writer, "create_deal", splits)).details).toEqual([
      { param: "splits", message: "percents must sum to exactly 100 (they sum to 60)" },
    ]);
    const unknownOwner = errorIn(await call(writer, "create_deal", dealBody("usr_00000000000000000000000000")));
    expect(unknownOwner.code).toBe("validation_error");
    expect(unknownOwner.message).toContain("owner_id");
  });

  it("a read key or a write key without the grant cannot create deals", async () => {
    const before = (await rest<Page<Deal>>(`/deals?owner_id=${rep.id}`)).meta.total;
    const asReader = errorIn(await call(reader, "create_deal", dealBody(rep.id)));
    expect(asReader.message).toMatch(/^create_deal needs the write scope; this key has read/);
    const ungranted = await clientFor("write", "read");
    const asUngranted = errorIn(
      await call(ungranted, "upsert_deal", { external_id: unique("crm"), ...dealBody(rep.id) }),
    );
    expect(asUngranted.message).toMatch(/^upsert_deal needs mcp_access write, granted by the owner/);
    expect((await rest<Page<Deal>>(`/deals?owner_id=${rep.id}`)).meta.total).toBe(before);
  });
});

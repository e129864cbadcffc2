import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sha256Hex } from "../../src/sessions/index.js";
import { createUser } from "../factories.js";
import { Api, assign, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";

let t: TestApp;
let api: Api;

beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(async () => {
  await t?.close();
});

interface Ack {
  id: string;
  user_id: string;
  plan_id: string;
  plan_version: number;
  status: string;
  document_sha256: string | null;
  acknowledged_at: string | null;
  document?: string;
  current_document_sha256?: string;
}

const EXPECTED_DOCUMENT = (name: string) =>
  [
    `COMMISSION PLAN: ${name}`,
    "Version 1",
    "",
    "Effective from: 2026-01-01",
    "Effective to: until replaced",
    "Currency: USD",
    "Commission period: quarter",
    "Quota per period: USD 100,000.00",
    "",
    "Commission rates by quota attainment:",
    "  from 0% of quota: 10% of deal value",
    "  from 100% of quota: 12.5% of deal value",
    "",
    "Minimum deal amount: none",
    "Cap per period: USD 5,000.00",
    "Clawback: 50% of the commission earned on a deal cancelled or refunded within 90 days of its close date",
    "",
  ].join("\n");

describe("plan acknowledgement", () => {
  it("assigning a plan asks the person; they read the document and acknowledge it; admins see who has not", async () => {
    const rep = await signedInAs(t, { role: "rep" });
    const finance = await signedInAs(t, { role: "finance" });
    const plan = await createPlan(api, {
      name: "Ack plan",
      tiers: [
        { from_attainment: 0, rate: 0.1 },
        { from_attainment: 1, rate: 0.125 },
      ],
      cap_per_period: 5000,
      clawback: { window_days: 90, percent: 50, proration: "none" },
    });
    await assign(api, plan.id, rep.user.id);
    const mine = ok<{ data: Ack[] }>(
      await t.app.inject({ method: "GET", url: "/api/v1/me/plan-acknowledgements", headers: rep.headers() }),
    );
    expect(mine.data).toHaveLength(1);
    expect(mine.data[0]).toMatchObject({ plan_id: plan.id, plan_version: 1, status: "pending", acknowledged_at: null });
    const id = mine.data[0]!.id;
    const pending = ok<{ data: Ack[] }>(
      await t.app.inject({
        method: "GET",
        url: `/api/v1/plan-acknowledgements?status=pending&user_id=${rep.user.id}`,
        headers: finance.headers(),
      }),
    );
    expect(pending.data.map((a) => a.id)).toEqual([id]);

    const detail = ok<Ack>(
      await t.app.inject({ method: "GET", url: `/api/v1/plan-acknowledgements/${id}`, headers: rep.headers() }),
    );
    expect(detail.document).toBe(EXPECTED_DOCUMENT("Ack plan"));
    expect(detail.current_document_sha256).toBe(sha256Hex(EXPECTED_DOCUMENT("Ack plan")));

    // Someone else may read it (finance) but not acknowledge it for the person.
    const forOther = await t.app.inject({
      method: "POST",
      url: `/api/v1/plan-acknowledgements/${id}/acknowledge`,
      headers: finance.headers("POST"),
      payload: {},
    });
    expect(forOther.statusCode).toBe(403);
    const stale = await t.app.inject({
      method: "POST",
      url: `/api/v1/plan-acknowledgements/${id}/acknowledge`,
      headers: rep.headers("POST"),
      payload: { document_sha256: "0".repeat(64) },
    });
    expect(stale.statusCode).toBe(409);
    const done = ok<Ack>(
      await t.app.inject({
        method: "POST",
        url: `/api/v1/plan-acknowledgements/${id}/acknowledge`,
        headers: rep.headers("POST"),
        payload: { document_sha256: detail.current_document_sha256 },
      }),
    );
    expect(done).toMatchObject({ status: "acknowledged", document_sha256: detail.current_document_sha256 });
    const again = await t.app.inject({
      method: "POST",
      url: `/api/v1/plan-acknowledgements/${id}/acknowledge`,
      headers: rep.headers("POST"),
      payload: {},
    });
    expect(again.statusCode).toBe(409);
    const stored = await sql<{ document_sha256: string; acknowledged_at: Date | null }>`
      SELECT document_sha256, acknowledged_at FROM plan_acknowledgements WHERE id = ${id}`.execute(t.db.db);
    expect(stored.rows[0]!.document_sha256).toBe(sha256Hex(EXPECTED_DOCUMENT("Ack plan")));
    expect(stored.rows[0]!.acknowledged_at).not.toBeNull();
    const after = ok<{ data: Ack[] }>(
      await t.app.inject({
        method: "GET",
        url: `/api/v1/plan-acknowledgements?user_id=${rep.user.id}`,
        headers: finance.headers(),
      }),
    );
    expect(after.data.map((a) => [a.id, a.status])).toEqual([[id, "acknowledged"]]);
  });

  it("a new plan version asks again; another rep cannot see the request (404)", async () => {
    const rep = await signedInAs(t, { role: "rep" });
    const other = await signedInAs(t, { role: "rep" });
    const plan = await createPlan(api, { name: "Versioned plan" });
    await assign(api, plan.id, rep.user.id);
    const changed = await api.patch(`/comp-plans/${plan.id}`, { quota: 120000 });
    expect(changed.statusCode, changed.body).toBe(200);
    const mine = ok<{ data: Ack[] }>(
      await t.app.inject({ method: "GET", url: "/api/v1/me/plan-acknowledgements", headers: rep.headers() }),
    );
    const versions = mine.data.map((a) => a.plan_version).sort();
    expect(versions.length).toBeGreaterThanOrEqual(1);
    expect(versions.at(-1)).toBe(changed.json().version);
    const hidden = await t.app.inject({
      method: "GET",
      url: `/api/v1/plan-acknowledgements/${mine.data[0]!.id}`,
      headers: other.headers(),
    });
    expect(hidden.statusCode).toBe(404);
    const rep2 = await createUser(t, { role: "rep" });
    const asKey = await api.get(`/plan-acknowledgements?user_id=${rep2.id}`);
    expect(ok<{ data: Ack[] }>(asKey).data).toEqual([]);
  });
});

import { sql } from "kysely";
import { createUser, unique } from "../factories.js";
import { Api, assign, createPlan } from "../factories-commissions.js";
import type { TestApp } from "../harness.js";
import type { RouteCase } from "../route-case.js";

/** A pending plan acknowledgement: a new person assigned a new plan (migration 022's trigger asks them). */
export async function newPlanAcknowledgement(t: TestApp): Promise<string> {
  const api = new Api(t);
  const user = await createUser(t, { name: unique("Acknowledger") });
  const plan = await createPlan(api);
  await assign(api, plan.id, user.id);
  const { rows } = await sql<{ id: string }>`
    SELECT id FROM plan_acknowledgements WHERE user_id = ${user.id} AND plan_id = ${plan.id}`.execute(t.db.db);
  return rows[0]!.id;
}

/** The security-table rows (test/route-case.ts) of notifications and plan acknowledgements a key may call. */
export const NOTIFICATION_ROUTES: RouteCase[] = [
  {
    method: "GET",
    path: "/api/v1/notifications/deliveries",
    scope: "admin",
    ok: 200,
    invalid: { query: "status=lost", param: "status" },
  },
  {
    method: "GET",
    path: "/api/v1/plan-acknowledgements",
    scope: "read",
    ok: 200,
    invalid: { query: "status=maybe", param: "status" },
  },
  {
    method: "GET",
    path: "/api/v1/plan-acknowledgements/{id}",
    scope: "read",
    ok: 200,
    record: newPlanAcknowledgement,
    idPrefix: "pack",
    invalid: { id: "p".repeat(256), param: "id" },
  },
];

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { errorOf, unknownId } from "../factories.js";
import { Api, createPlan, dealBody, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";

let t: TestApp;
let admin: Api;

beforeAll(async () => {
  t = await createTestApp();
  admin = new Api(t, "admin");
});

afterAll(async () => {
  await t?.close();
});

function preview(headers: Record<string, string>, body: unknown) {
  return t.app.inject({ method: "POST", url: "/api/v1/commissions/preview", headers, payload: body as object });
}

describe("a person's preview prices only with plans they see (a plan's terms are in its lines)", () => {
  it("a plan not assigned to the rep answers as an unknown one; their own plan prices", async () => {
    const { user, plan } = await repOnPlan(admin);
    const rep = await signedInAs(t, user);
    const other = await createPlan(admin, { status: "draft" });

    const hidden = await preview(rep.headers("POST"), { ...dealBody(user.id), plan_id: other.id });
    const unknownPlan = unknownId("plan");
    const unknown = await preview(rep.headers("POST"), { ...dealBody(user.id), plan_id: unknownPlan });
    expect(hidden.statusCode).toBe(422);
    expect(unknown.statusCode).toBe(422);
    expect(errorOf(hidden).details).toEqual([{ param: "plan_id", message: `comp plan ${other.id} does not exist` }]);
    expect(errorOf(unknown).details).toEqual([
      { param: "plan_id", message: `comp plan ${unknownPlan} does not exist` },
    ]);

    const own = await preview(rep.headers("POST"), { ...dealBody(user.id), plan_id: plan.id });
    expect(own.statusCode, own.body).toBe(200);
    expect(own.json().lines.map((l: { plan_id: string }) => l.plan_id)).toEqual([plan.id]);
  });
});

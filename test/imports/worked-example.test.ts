import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createUser, errorOf } from "../factories.js";
import { Api, assign, createPlan, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { csvOf, postCsv } from "./support.js";

/** API.md §19's example, to the message. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  const admin = new Api(t, "admin");
  const plan = await createPlan(admin, { tiers: null, quota: null, base_rate: 0.1 });
  for (const email of ["ana@example.com", "ben@example.com"]) {
    const user = await createUser(t, { email, name: email.split("@")[0]! });
    await assign(admin, plan.id, user.id, { effective_from: "2026-01-01" });
  }
});
afterAll(() => t.close());

const HEADER = "external_id,opportunity_name,arr_amount,currency,close_date,owner_id,split_user_ids,split_percents";
const FILE = csvOf([
  HEADER,
  "SF-001,Acme,50000.00,USD,2026-01-15,ana@example.com,ana@example.com;ben@example.com,60;40",
  "SF-002,Globex,1007.00,EUR,2026-03-10,ben@example.com,,",
  "SF-003,Initech,12.345,USD,2026-03-11,ben@example.com,ana@example.com;ben@example.com,33.3333;66.6666",
]);

describe("API.md §19 worked example", () => {
  it("dry run: created 2, row 4's two errors in the contract's words", async () => {
    const body = ok(await postCsv(t, "deals", FILE, { query: "dry_run=true" }));
    expect(body).toEqual({
      created: 2,
      updated: 0,
      unchanged: 0,
      errors: [
        { row: 4, field: "arr_amount", message: "must have at most 2 decimal places for USD" },
        { row: 4, field: "split_percents", message: "must sum to exactly 100 (they sum to 99.9999)" },
      ],
      rows: [
        { row: 2, external_id: "SF-001", action: "create" },
        { row: 3, external_id: "SF-002", action: "create" },
        { row: 4, external_id: "SF-003", action: "error" },
      ],
    });
  });

  it("the real import → 422 with both, nothing written; fixed → created 3; again → unchanged 3; SF-002 at 1100.00 → updated 1", async () => {
    const refused = await postCsv(t, "deals", FILE);
    expect(refused.statusCode, refused.body).toBe(422);
    expect(errorOf(refused).details).toEqual([
      {
        param: "rows[4].arr_amount",
        row: 4,
        field: "arr_amount",
        message: "must have at most 2 decimal places for USD",
      },
      {
        param: "rows[4].split_percents",
        row: 4,
        field: "split_percents",
        message: "must sum to exactly 100 (they sum to 99.9999)",
      },
    ]);
    const fixed = FILE.replace("12.345", "12.34").replace("33.3333;66.6666", "33.3333;66.6667");
    expect(ok(await postCsv(t, "deals", fixed))).toEqual({
      created: 3,
      updated: 0,
      unchanged: 0,
      errors: [],
      recalculation_job_id: null,
    });
    // SF-002 is in EUR, its owner's plan in USD (no rate stored): created all the same, with no plan line.
    const api = new Api(t, "read");
    const globex = ok<{ data: { currency: string; status: string; arr_amount: number; total_commission: number }[] }>(
      await api.get("/deals?external_id=SF-002"),
    ).data[0];
    expect(globex).toMatchObject({ currency: "EUR", status: "pending", arr_amount: 1007, total_commission: 0 });
    expect(ok(await postCsv(t, "deals", fixed))).toMatchObject({ created: 0, updated: 0, unchanged: 3 });
    expect(ok(await postCsv(t, "deals", fixed.replace("1007.00", "1100.00")))).toMatchObject({
      created: 0,
      updated: 1,
      unchanged: 2,
    });
  });
});

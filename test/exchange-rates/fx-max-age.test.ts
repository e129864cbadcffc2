import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "../../src/http/pagination.js";
import type { Spiff } from "../../src/spiffs/index.js";
import { errorOf } from "../factories.js";
import { Api, createPlan, ok, planBody } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

// API.md §15: fx_max_age_days (0–31, default 7) on comp plans, versioned with their terms, and on SPIFFs.

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const spiffBody = (overrides: Record<string, unknown> = {}) => ({
  name: "Q3 push",
  starts_on: "2026-07-01",
  ends_on: "2026-09-30",
  payout: { type: "flat", amount: 500 },
  ...overrides,
});

const BAD: [unknown, string][] = [
  [32, "must be at most 31"],
  [-1, "must be at least 0"],
  [1.5, "whole number"],
  ["7", "number"],
  [null, "number"],
];

describe("fx_max_age_days on comp plans", () => {
  it("defaults to 7, is accepted on POST, and a PATCH of an active plan makes a new version", async () => {
    const plan = await createPlan(api);
    expect(plan.fx_max_age_days).toBe(7);
    expect((await createPlan(api, { fx_max_age_days: 0 })).fx_max_age_days).toBe(0);
    const patched = ok<{ fx_max_age_days: number; version: number }>(
      await api.patch(`/comp-plans/${plan.id}`, { fx_max_age_days: 31 }),
    );
    expect(patched).toMatchObject({ fx_max_age_days: 31, version: 2 });
    const versions = ok<Page<{ version: number; fx_max_age_days: number }>>(
      await api.get(`/comp-plans/${plan.id}/versions`),
    );
    expect(versions.data.map((v) => [v.version, v.fx_max_age_days])).toEqual([
      [2, 31],
      [1, 7],
    ]);
  });

  it.each(BAD)("422 for %j on POST and PATCH", async (value, message) => {
    const created = await api.post("/comp-plans", planBody({ fx_max_age_days: value }));
    expect([created.statusCode, errorOf(created).details?.[0]]).toEqual([
      422,
      { param: "fx_max_age_days", message: expect.stringContaining(message) },
    ]);
    const plan = await createPlan(api);
    const patched = await api.patch(`/comp-plans/${plan.id}`, { fx_max_age_days: value });
    expect([patched.statusCode, errorOf(patched).details?.[0]?.param]).toEqual([422, "fx_max_age_days"]);
  });
});

describe("fx_max_age_days on SPIFFs", () => {
  it("defaults to 7; POST and PATCH set it", async () => {
    const spiff = ok<Spiff>(await api.post("/spiffs", spiffBody()), 201);
    expect(spiff.fx_max_age_days).toBe(7);
    expect(ok<Spiff>(await api.post("/spiffs", spiffBody({ fx_max_age_days: 3 })), 201).fx_max_age_days).toBe(3);
    expect(ok<Spiff>(await api.patch(`/spiffs/${spiff.id}`, { fx_max_age_days: 14 })).fx_max_age_days).toBe(14);
    expect(ok<Spiff>(await api.get(`/spiffs/${spiff.id}`)).fx_max_age_days).toBe(14);
  });

  it.each(BAD)("422 for %j", async (value) => {
    const res = await api.post("/spiffs", spiffBody({ fx_max_age_days: value }));
    expect([res.statusCode, errorOf(res).details?.[0]?.param]).toEqual([422, "fx_max_age_days"]);
  });
});

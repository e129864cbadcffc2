import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Page } from "../../src/http/pagination.js";
import type { Spiff } from "../../src/spiffs/index.js";
import type { SpiffWritten } from "../../src/spiffs/testing.js";
import { createUser, errorOf, unknownId } from "../factories.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const body = (overrides: Record<string, unknown> = {}) => ({
  name: "Q3 push",
  starts_on: "2026-07-01",
  ends_on: "2026-09-30",
  payout: { type: "flat", amount: 500 },
  ...overrides,
});
const details = (res: LightMyRequestResponse) => errorOf(res).details ?? [];

describe("SPIFFs", () => {
  it("creates with defaults, reads, updates and deletes", async () => {
    const spiff = ok<SpiffWritten>(await api.post("/spiffs", body()), 201);
    expect(spiff).toMatchObject({
      name: "Q3 push",
      description: null,
      currency: "USD",
      starts_on: "2026-07-01",
      ends_on: "2026-09-30",
      criteria: { min_arr_amount: null, deal_types: null, user_ids: null },
      payout: { type: "flat", amount: 500 },
      active: true,
      recalculation_job_id: null,
    });
    expect(spiff.id).toMatch(/^spiff_/);
    const user = await createUser(t);
    const updated = ok<SpiffWritten>(
      await api.patch(`/spiffs/${spiff.id}`, {
        criteria: { min_arr_amount: 25000.5, deal_types: ["renewal"], user_ids: [user.id] },
        payout: { type: "rate", rate: 0.015 },
        active: false,
      }),
    );
    expect(updated).toMatchObject({
      criteria: { min_arr_amount: 25000.5, deal_types: ["renewal"], user_ids: [user.id] },
      payout: { type: "rate", rate: 0.015 },
      active: false,
    });
    expect(ok<Spiff>(await api.get(`/spiffs/${spiff.id}`))).toMatchObject({ active: false, payout: { rate: 0.015 } });
    expect((await api.del(`/spiffs/${spiff.id}`)).statusCode).toBe(204);
    expect((await api.get(`/spiffs/${spiff.id}`)).statusCode).toBe(404);
    expect((await api.del(`/spiffs/${spiff.id}`)).statusCode).toBe(404);
  });

  it("lists newest first, filtered by active", async () => {
    const off = ok<SpiffWritten>(await api.post("/spiffs", body({ active: false })), 201);
    const on = ok<SpiffWritten>(await api.post("/spiffs", body()), 201);
    const inactive = ok<Page<Spiff>>(await api.get("/spiffs?active=false&per_page=100"));
    expect(inactive.data.map((s) => s.id)).toContain(off.id);
    expect(inactive.data.map((s) => s.id)).not.toContain(on.id);
    expect(ok<Page<Spiff>>(await api.get("/spiffs")).data[0]!.id).toBe(on.id);
    expect(details(await api.get("/spiffs?active=yes"))[0]!.param).toBe("active");
  });

  it.each([
    [{ ends_on: "2026-06-30" }, "ends_on", "must be on or after starts_on (2026-07-01)"],
    [{ payout: { type: "flat", amount: 1.234 } }, "payout.amount", "must have at most 2 decimal places for USD"],
    [{ payout: { type: "rate", rate: 11 } }, "payout.rate", "must be at most 10"],
    [{ payout: { type: "bonus", amount: 1 } }, "payout.type", "matches none of the accepted forms"],
    [{ payout: { type: "flat", rate: 0.1 } }, "payout.amount", "must be a number"],
    [
      { criteria: { deal_types: ["upsell"] } },
      "criteria.deal_types[0]",
      "must be one of: new_business, expansion, renewal, other",
    ],
    [{ criteria: { user_ids: ["usr_ghost"] } }, "criteria.user_ids[0]", "user usr_ghost does not exist"],
    [{ criteria: { min_arr_amount: -1 } }, "criteria.min_arr_amount", "must be at least 0"],
    [{ currency: "usd" }, "currency", "must be an ISO 4217 code of 3 uppercase letters, such as USD"],
    [{ id: "spiff_1" }, "id", "is read-only and cannot be set"],
  ])("%j → 422 naming %s", async (override, param, message) => {
    const res = await api.post("/spiffs", body(override));
    expect(res.statusCode, res.body).toBe(422);
    const detail = details(res).find((d) => d.param === param);
    expect(detail, res.body).toBeDefined();
    expect(detail!.message).toBe(message);
  });

  it("required fields are named; unknown ids are 404", async () => {
    expect(
      details(await api.post("/spiffs", {}))
        .map((d) => d.param)
        .sort(),
    ).toEqual(["ends_on", "name", "payout", "starts_on"]);
    expect((await api.patch(`/spiffs/${unknownId("spiff")}`, { name: "x" })).statusCode).toBe(404);
  });
});

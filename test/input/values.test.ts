import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApiKey, createUser } from "../factories.js";
import { createTestApp, type TestApp, TestClock } from "../harness.js";
import { type Operation, operations } from "../route-case.js";
import { expectContractError, NOT_IDS, send, urlOf, WRITE_METHODS } from "./operations.js";

const t: TestApp = await createTestApp({ clock: new TestClock() });
// Routes only a session may call answer a key 403 before reading input (test/auth covers them).
const OPS = await operations(t);
let admin = "";

beforeAll(async () => {
  admin = (await createApiKey(t, "admin")).key;
});
afterAll(async () => {
  await t.close();
});

const DATE_NAME = /(^|_)(date|from|to|on)$/;
const TIME_NAME = /(^|_)(since|at)$/;
const DATE_RANGE = "must be a date YYYY-MM-DD from 0001-01-01 to 9999-12-31";
const TIME_RANGE =
  "must be an RFC 3339 timestamp such as 2026-11-22T10:00:00.000Z, from 0001-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z";

/** Query parameters named like dates that are months (YYYY-MM), by operation: checked as months below. */
const MONTHS: Record<string, string[]> = { "/api/v1/accounting/roll-forward": ["from", "to"] };
const MONTH_RANGE = "must be a month YYYY-MM from 0001-01 to 9999-12";

/** Every date or timestamp input of the route table: body properties and query parameters, by name. */
const TEMPORAL = OPS.flatMap((op) => {
  const fields = [
    ...Object.keys(op.body ?? {}).map((name) => ({ name, where: "body" as const })),
    ...op.queryParams.map((name) => ({ name, where: "query" as const })),
  ];
  return fields
    .filter((f) => f.name !== "return_to" && (DATE_NAME.test(f.name) || TIME_NAME.test(f.name)))
    .filter((f) => !MONTHS[op.path]?.includes(f.name))
    .map((f) => [`${op.method} ${op.path} ${f.where}:${f.name}`, op, f] as const);
});

describe("#13.9 year 0000 (or 10000) in any date or timestamp → 422 stating the range", () => {
  it("the table finds them", () => {
    expect(TEMPORAL.length).toBeGreaterThan(20);
  });

  it.each(TEMPORAL)("%s", async (_name, op, field) => {
    const isDate = DATE_NAME.test(field.name);
    const values = isDate
      ? ["0000-01-01", "0000-12-31", "10000-01-01", "-0001-01-01"]
      : ["0000-01-01T00:00:00.000Z", "0001-01-01T00:30:00+01:00", "+010000-01-01T00:00:00Z", "2026-01-01"];
    for (const value of values) {
      const res =
        field.where === "query"
          ? await send(t, admin, op, urlOf(op, "x_1", `${field.name}=${encodeURIComponent(value)}`))
          : await send(t, admin, op, urlOf(op), { [field.name]: value });
      const error = expectContractError(res, 422, "validation_error");
      expect(error.details).toContainEqual({ param: field.name, message: isDate ? DATE_RANGE : TIME_RANGE });
    }
  });

  it.each(Object.entries(MONTHS).flatMap(([path, names]) => names.map((name) => [path, name] as const)))(
    "%s query:%s, a month",
    async (path, name) => {
      const op = OPS.find((o) => o.path === path && o.method === "GET")!;
      for (const value of ["0000-01", "10000-01", "2026-13", "2026-1", "2026-01-01"]) {
        const res = await send(t, admin, op, urlOf(op, "x_1", `${name}=${encodeURIComponent(value)}`));
        expect(expectContractError(res, 422, "validation_error").details).toContainEqual({
          param: name,
          message: MONTH_RANGE,
        });
      }
    },
  );

  it("the ends of the range work", async () => {
    const user = await createUser(t);
    for (const close_date of ["0001-01-01", "9999-12-31"]) {
      const body = { opportunity_name: "Edge", arr_amount: 1, close_date, owner_id: user.id };
      const res = await send(t, admin, { method: "POST" }, "/api/v1/deals", body);
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().close_date).toBe(close_date);
    }
    const since = await send(t, admin, { method: "GET" }, "/api/v1/deals?updated_since=0001-01-01T00:00:00.000Z");
    expect(since.statusCode).toBe(200);
  });
});

describe("#13.12 webhook URLs with no host → 422 on POST and PATCH", () => {
  const urls = ["file:///etc/passwd", "javascript:alert(1)", "data:text/plain,hi", "mailto:a@example.com"];
  it.each(urls)("%s", async (url) => {
    const create = await send(t, admin, { method: "POST" }, "/api/v1/webhook-subscriptions", {
      url,
      events: ["deal.created"],
    });
    expect(expectContractError(create, 422, "validation_error").details).toContainEqual({
      param: "url",
      message: "must be an https URL with a host, such as https://example.com/hooks",
    });
    const patch = await send(t, admin, { method: "PATCH" }, "/api/v1/webhook-subscriptions/whsub_0", { url });
    expect(expectContractError(patch, 422, "validation_error").details).toContainEqual({
      param: "url",
      message: "must be an https URL with a host, such as https://example.com/hooks",
    });
  });
});

const LISTS = OPS.filter((op) => op.queryParams.includes("per_page"));

describe("#13.14 integers in query strings are plain decimal digits", () => {
  it.each(LISTS.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", async (_name, op) => {
    for (const value of ["0x10", "0b11", "1e2", "+5", " 5", "5 ", "1.0", "", "９"]) {
      const res = await send(t, admin, op, urlOf(op, "x_1", `per_page=${encodeURIComponent(value)}`));
      const error = expectContractError(res, 422, "validation_error");
      expect(error.details).toContainEqual({ param: "per_page", message: "must be a whole number written in digits" });
    }
    const twice = await send(t, admin, op, urlOf(op, "x_1", "page=1&page=2"));
    expect(expectContractError(twice, 422, "validation_error").details).toEqual([
      { param: "page", message: "is given twice" },
    ]);
    const fine = await send(t, admin, op, urlOf(op, "x_1", "per_page=007"));
    expect(fine.statusCode).not.toBe(422);
  });
});

describe("#13.14 contract-style messages instead of raw zod texts", () => {
  it.each([
    ["/api/v1/deals?status=open", "status"],
    ["/api/v1/comp-plans?status=open", "status"],
    ["/api/v1/users?role=emperor", "role"],
    ["/api/v1/commissions?kind=bonus", "kind"],
  ])("%s", async (url, param) => {
    const res = await send(t, admin, { method: "GET" }, url);
    const detail = expectContractError(res, 422, "validation_error").details?.find((d) => d.param === param);
    expect(detail?.message).toMatch(/^must be (one of: |an? [a-z ]+ \()/);
  });

  it("a wrong type, a missing field and an enum say so plainly", async () => {
    const res = await send(t, admin, { method: "POST" }, "/api/v1/users", { name: 5, role: "emperor" });
    expect(expectContractError(res, 422, "validation_error").details).toEqual([
      { param: "name", message: "must be a string, not a number" },
      { param: "email", message: "is required" },
      { param: "role", message: "must be one of: rep, manager, admin, finance" },
    ]);
  });

  const MONEY: [string, string, Record<string, unknown>][] = [
    ["POST", "/api/v1/deals", { arr_amount: 1e308 }],
    ["POST", "/api/v1/commissions/preview", { arr_amount: 1e308 }],
    ["POST", "/api/v1/comp-plans", { quota: 1e308, min_deal_amount: 1e308, cap_per_period: 1e308 }],
    ["POST", "/api/v1/commissions/adjustments", { amount: 1e308 }],
    ["POST", "/api/v1/deals/x_1/disputes", { expected_amount: 1e308 }],
    ["POST", "/api/v1/disputes/x_1/resolve", { resolved_amount: 1e308 }],
  ];
  it.each(MONEY)("%s %s: huge money says it is too large", async (method, url, body) => {
    const res = await send(t, admin, { method: method as Operation["method"] }, url, body);
    const details = expectContractError(res, 422, "validation_error").details ?? [];
    for (const field of Object.keys(body)) {
      expect(details).toContainEqual({ param: field, message: "must be at most 999999999999.99" });
    }
    const negative = await send(t, admin, { method: method as Operation["method"] }, url, {
      [Object.keys(body)[0]!]: -1e308,
    });
    expect(JSON.stringify(negative.json())).not.toContain("decimal places");
  });
});

const ID_ROUTES = OPS.filter((op) => op.pathParams.some((name) => !(name in NOT_IDS)));

describe("#13.15 any id up to 255 characters works or is a 404; longer is 422", () => {
  it.each(ID_ROUTES.map((op) => [`${op.method} ${op.path}`, op] as const))("%s", async (_name, op) => {
    const param = op.pathParams[0]!;
    const body = WRITE_METHODS.has(op.method) ? {} : undefined;
    const long = await send(t, admin, op, urlOf(op, "x".repeat(256)), body);
    const error = expectContractError(long, 422, "validation_error");
    expect(error.details).toContainEqual({ param, message: "must be at most 255 characters" });
    for (const length of [101, 201, 255]) {
      const res = await send(t, admin, op, urlOf(op, "x".repeat(length)), body);
      // A body the route needs may be named first (422 on body fields), never the id itself.
      expect(res.statusCode, res.body).toBeLessThan(500);
      if (res.statusCode === 422)
        expect(res.json().error.details.map((d: { param: string }) => d.param)).not.toContain(param);
      else expectContractError(res, 404, "not_found");
    }
  });

  it("PUT /deals/by-external-id with a 255-character id creates the deal", async () => {
    const user = await createUser(t);
    const id = "e".repeat(255);
    const body = { opportunity_name: "Long", arr_amount: 1, close_date: "2026-01-01", owner_id: user.id };
    const res = await send(t, admin, { method: "PUT" }, `/api/v1/deals/by-external-id/${id}`, body);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().external_id).toBe(id);
  });

  it("the external_id filter is trimmed like the field", async () => {
    const user = await createUser(t);
    const body = {
      external_id: "  crm-trim-1  ",
      opportunity_name: "Trim",
      arr_amount: 1,
      close_date: "2026-01-01",
      owner_id: user.id,
    };
    const created = await send(t, admin, { method: "POST" }, "/api/v1/deals", body);
    expect(created.json().external_id).toBe("crm-trim-1");
    const found = await send(
      t,
      admin,
      { method: "GET" },
      `/api/v1/deals?external_id=${encodeURIComponent(" crm-trim-1 ")}`,
    );
    expect(found.json().data.map((d: { id: string }) => d.id)).toEqual([created.json().id]);
  });
});

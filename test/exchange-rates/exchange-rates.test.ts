import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ExchangeRateSet,
  type ExchangeRateSetWritten,
  type RatesChange,
  setRatesChangeHandler,
} from "../../src/exchange-rates/index.js";
import type { Page } from "../../src/http/pagination.js";
import { errorOf } from "../factories.js";
import { Api, ok } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";
import { signedInAs } from "../sessions.js";

let t: TestApp;
let api: Api;
beforeAll(async () => {
  t = await createTestApp();
  api = new Api(t);
});
afterAll(() => t.close());

const put = (date: string, body: unknown, headers: Record<string, string> = {}) =>
  api.request("PUT", `/exchange-rates/${date}`, body, headers);
const problems = (res: LightMyRequestResponse) => {
  expect([res.statusCode, errorOf(res).code], res.body).toEqual([422, "validation_error"]);
  return errorOf(res).details ?? [];
};

describe("PUT /exchange-rates/{date} (API.md §15)", () => {
  it("201 when new, 200 when replaced; rates kept exactly, in plain form, codes in order", async () => {
    const first = await put("2026-03-09", { base: "USD", rates: { GBP: "0.790", EUR: "0.92", JPY: "151.2345" } });
    const created = ok<ExchangeRateSetWritten>(first, 201);
    expect(created).toMatchObject({
      date: "2026-03-09",
      base: "USD",
      rates: { EUR: "0.92", GBP: "0.79", JPY: "151.2345" },
      recalculation_job_id: null,
    });
    expect(Object.keys(created.rates)).toEqual(["EUR", "GBP", "JPY"]);
    expect(first.headers.location).toMatch(/\/api\/v1\/exchange-rates\/2026-03-09\?base=USD$/);
    const read = await api.get("/exchange-rates/2026-03-09?base=USD");
    expect(read.headers.etag).toBe(first.headers.etag);
    const { recalculation_job_id: _job, ...record } = created;
    expect(ok<ExchangeRateSet>(read)).toEqual(record);

    const replaced = ok<ExchangeRateSetWritten>(
      await put("2026-03-09", { base: "USD", rates: { EUR: "0.9300000000", CHF: "000.88" } }),
      200,
    );
    expect(replaced.rates).toEqual({ CHF: "0.88", EUR: "0.93" });
    expect(replaced.created_at).toBe(created.created_at);
    expect(replaced.updated_at >= created.updated_at).toBe(true);
    // The largest rate the contract allows, exactly.
    const widest = { base: "KWD", rates: { IDR: "999999999999.9999999999" } };
    expect(ok<ExchangeRateSetWritten>(await put("2026-03-09", widest), 201).rates).toEqual(widest.rates);
  });

  const code200 = Object.fromEntries(Array.from({ length: 200 }, (_, i) => [codeOf(i), "1.5"]));
  const code201 = { ...code200, ZZZ: "2" };
  it.each<[string, string, unknown, string]>([
    ["date not a calendar day", "2026-02-30", { base: "USD", rates: { EUR: "0.92" } }, "date"],
    ["date not YYYY-MM-DD", "2026-3-9", { base: "USD", rates: { EUR: "0.92" } }, "date"],
    ["base lowercase", "2026-03-09", { base: "usd", rates: { EUR: "0.92" } }, "base"],
    ["base of 4 letters", "2026-03-09", { base: "USDT", rates: { EUR: "0.92" } }, "base"],
    ["base missing", "2026-03-09", { rates: { EUR: "0.92" } }, "base"],
    ["rates missing", "2026-03-09", { base: "USD" }, "rates"],
    ["no codes", "2026-03-09", { base: "USD", rates: {} }, "rates"],
    ["201 codes", "2026-03-09", { base: "USD", rates: code201 }, "rates"],
    ["a code equal to the base", "2026-03-09", { base: "USD", rates: { EUR: "0.92", USD: "1" } }, "rates.USD"],
    ["a lowercase code", "2026-03-09", { base: "USD", rates: { eur: "0.92" } }, "rates.eur"],
    ["a rate as a number", "2026-03-09", { base: "USD", rates: { EUR: 0.92 } }, "rates.EUR"],
    ["a rate of 0", "2026-03-09", { base: "USD", rates: { EUR: "0.000" } }, "rates.EUR"],
    ["a negative rate", "2026-03-09", { base: "USD", rates: { EUR: "-0.92" } }, "rates.EUR"],
    ["11 decimals", "2026-03-09", { base: "USD", rates: { EUR: "0.92000000001" } }, "rates.EUR"],
    ["13 integer digits", "2026-03-09", { base: "USD", rates: { EUR: "1000000000000" } }, "rates.EUR"],
    ["an exponent", "2026-03-09", { base: "USD", rates: { EUR: "9.2e-1" } }, "rates.EUR"],
    ["an unknown field", "2026-03-09", { base: "USD", rates: { EUR: "0.92" }, source: "ecb" }, "source"],
    ["a read-only field", "2026-03-09", { base: "USD", rates: { EUR: "0.92" }, created_at: "x" }, "created_at"],
  ])("422 for %s", async (_what, date, body, param) => {
    const res = await put(date, body);
    expect(problems(res).map((d) => d.param)).toContain(param);
    const stored = ok<Page<ExchangeRateSet>>(await api.get("/exchange-rates?date=2026-03-10"));
    expect(stored.meta.total).toBe(0);
  });

  it("200 codes are accepted", async () => {
    const res = await put("2026-03-10", { base: "USD", rates: code200 });
    expect(Object.keys(ok<ExchangeRateSetWritten>(res, 201).rates)).toHaveLength(200);
    expect((await api.request("DELETE", "/exchange-rates/2026-03-10?base=USD")).statusCode).toBe(204);
  });

  it("If-Match: the GET's ETag replaces; a stale one is 412 and changes nothing", async () => {
    const first = await put("2026-04-01", { base: "EUR", rates: { USD: "1.08" } });
    const etag = first.headers.etag as string;
    const next = await put("2026-04-01", { base: "EUR", rates: { USD: "1.09" } }, { "if-match": etag });
    expect(next.statusCode, next.body).toBe(200);
    const stale = await put("2026-04-01", { base: "EUR", rates: { USD: "1.10" } }, { "if-match": etag });
    expect([stale.statusCode, errorOf(stale).code]).toEqual([412, "precondition_failed"]);
    const absent = await put("2026-04-02", { base: "EUR", rates: { USD: "1.10" } }, { "if-match": etag });
    expect(absent.statusCode).toBe(412);
    expect(ok<ExchangeRateSet>(await api.get("/exchange-rates/2026-04-01?base=EUR")).rates).toEqual({ USD: "1.09" });
  });

  it("an Idempotency-Key replays the stored answer", async () => {
    const body = { base: "GBP", rates: { USD: "1.27" } };
    const first = await put("2026-04-03", body, { "idempotency-key": "rates-2026-04-03" });
    const again = await put("2026-04-03", body, { "idempotency-key": "rates-2026-04-03" });
    expect([first.statusCode, again.statusCode]).toEqual([201, 201]);
    expect(again.headers["idempotent-replayed"]).toBe("true");
    expect(again.body).toBe(first.body);
  });

  it("audits create, replace and delete with the set before and after", async () => {
    await put("2026-05-04", { base: "CHF", rates: { EUR: "1.05" } });
    await put("2026-05-04", { base: "CHF", rates: { EUR: "1.06" } });
    await api.request("DELETE", "/exchange-rates/2026-05-04?base=CHF");
    const rows = await t.db.db
      .selectFrom("audit_events")
      .select(["action", "resource", "resource_id", "before", "after"])
      .where("resource_id", "=", "2026-05-04/CHF")
      .orderBy("created_at")
      .orderBy("id")
      .execute();
    expect(rows.map((r) => [r.action, r.resource])).toEqual([
      ["exchange_rates.create", "exchange_rates"],
      ["exchange_rates.replace", "exchange_rates"],
      ["exchange_rates.delete", "exchange_rates"],
    ]);
    const rates = (v: unknown) => (v as { rates: Record<string, string> } | null)?.rates;
    expect(rows.map((r) => [rates(r.before), rates(r.after)])).toEqual([
      [undefined, { EUR: "1.05" }],
      [{ EUR: "1.05" }, { EUR: "1.06" }],
      [{ EUR: "1.06" }, undefined],
    ]);
  });

  it("calls the recalculation port with the changed set and the close dates it reaches", async () => {
    const seen: RatesChange[] = [];
    const previous = setRatesChangeHandler(async (_tx, _ctx, change) => {
      seen.push(change);
      return { jobId: "job_TEST" };
    });
    try {
      const res = await put("2026-12-15", { base: "USD", rates: { EUR: "0.9" } });
      expect(ok<ExchangeRateSetWritten>(res, 201).recalculation_job_id).toBe("job_TEST");
      const gone = await api.request("DELETE", "/exchange-rates/2026-12-15?base=USD");
      expect([gone.statusCode, gone.headers["recalculation-job-id"]]).toEqual([204, "job_TEST"]);
    } finally {
      setRatesChangeHandler(previous);
    }
    const change = { date: "2026-12-15", base: "USD", close_dates: { from: "2026-12-15", to: "2027-01-15" } };
    expect(seen).toEqual([change, change]);
  });
});

describe("GET /exchange-rates", () => {
  beforeAll(async () => {
    for (const [date, base] of [
      ["2025-01-02", "USD"],
      ["2025-01-03", "EUR"],
      ["2025-01-03", "USD"],
      ["2025-01-03", "AUD"],
      ["2025-01-01", "EUR"],
    ] as const) {
      ok(await put(date, { base, rates: { JPY: "150" } }), 201);
    }
  });
  const listed = async (query: string) => {
    const page = ok<Page<ExchangeRateSet>>(await api.get(`/exchange-rates?${query}`));
    return { keys: page.data.map((s) => `${s.date} ${s.base}`), total: page.meta.total };
  };

  it("newest date first, then base; filters by date and base; paginates with Link", async () => {
    expect(await listed("date=2025-01-03")).toEqual({
      keys: ["2025-01-03 AUD", "2025-01-03 EUR", "2025-01-03 USD"],
      total: 3,
    });
    expect(await listed("base=EUR&per_page=100")).toMatchObject({
      keys: expect.arrayContaining(["2025-01-03 EUR", "2025-01-01 EUR"]),
    });
    const eur = (await listed("base=EUR&per_page=100")).keys.filter((k) => k.startsWith("2025-"));
    expect(eur).toEqual(["2025-01-03 EUR", "2025-01-01 EUR"]);
    expect(await listed("date=2025-01-03&base=USD")).toEqual({ keys: ["2025-01-03 USD"], total: 1 });
    const page2 = await api.get("/exchange-rates?date=2025-01-03&per_page=2&page=2");
    expect(ok<Page<ExchangeRateSet>>(page2).data.map((s) => s.base)).toEqual(["USD"]);
    expect(page2.headers.link).toContain('rel="prev"');
  });

  it.each([
    ["date=2025-02-29", "date"],
    ["base=eur", "base"],
    ["per_page=101", "per_page"],
    ["currency=EUR", "currency"],
  ])("422 for %s", async (query, param) => {
    expect(problems(await api.get(`/exchange-rates?${query}`)).map((d) => d.param)).toContain(param);
  });

  it("one set: 200, 404 when absent, 422 without base", async () => {
    expect(ok<ExchangeRateSet>(await api.get("/exchange-rates/2025-01-02?base=USD")).rates).toEqual({ JPY: "150" });
    const absent = await api.get("/exchange-rates/2025-01-02?base=EUR");
    expect([absent.statusCode, errorOf(absent).message]).toEqual([404, "No EUR exchange rates on 2025-01-02"]);
    expect(problems(await api.get("/exchange-rates/2025-01-02")).map((d) => d.param)).toEqual(["base"]);
  });
});

describe("DELETE /exchange-rates/{date}", () => {
  it("204, then 404; 422 without base or with a bad date", async () => {
    ok(await put("2026-06-01", { base: "USD", rates: { EUR: "0.9" } }), 201);
    const del = (q: string) => api.request("DELETE", `/exchange-rates/${q}`);
    expect(problems(await del("2026-06-01")).map((d) => d.param)).toEqual(["base"]);
    expect(problems(await del("2026-06-31?base=USD")).map((d) => d.param)).toEqual(["date"]);
    expect((await del("2026-06-01?base=EUR")).statusCode).toBe(404);
    expect((await del("2026-06-01?base=USD")).statusCode).toBe(204);
    expect((await del("2026-06-01?base=USD")).statusCode).toBe(404);
    expect((await api.get("/exchange-rates/2026-06-01?base=USD")).statusCode).toBe(404);
  });
});

describe("who may call what", () => {
  it.each(["rep", "manager", "finance"] as const)("a %s reads rates but may not write them (403)", async (role) => {
    const person = await signedInAs(t, { role });
    const as = (method: "GET" | "PUT" | "DELETE", url: string, payload?: unknown) =>
      t.app.inject({ method, url: `/api/v1${url}`, headers: person.headers(method), ...(payload ? { payload } : {}) });
    expect((await as("GET", "/exchange-rates")).statusCode).toBe(200);
    const write = await as("PUT", "/exchange-rates/2026-07-01", { base: "USD", rates: { EUR: "0.9" } });
    expect([write.statusCode, errorOf(write).code]).toEqual([403, "forbidden"]);
    expect(errorOf(write).message).toContain("needs the admin role");
    const remove = await as("DELETE", "/exchange-rates/2025-01-02?base=USD");
    expect(remove.statusCode).toBe(403);
  });

  it("an admin writes", async () => {
    const admin = await signedInAs(t, { role: "admin" });
    const res = await t.app.inject({
      method: "PUT",
      url: "/api/v1/exchange-rates/2026-07-01",
      headers: admin.headers("PUT"),
      payload: { base: "USD", rates: { EUR: "0.9" } },
    });
    expect(res.statusCode, res.body).toBe(201);
  });

  it("a write key is refused (admin scope)", async () => {
    const res = await new Api(t, "write").put("/exchange-rates/2026-07-02", { base: "USD", rates: { EUR: "0.9" } });
    expect([res.statusCode, errorOf(res).message]).toEqual([
      403,
      "This endpoint needs the admin scope; this key has write",
    ]);
  });
});

/** The i-th of 26³ three-letter codes (AAA, AAB, …). */
function codeOf(i: number): string {
  const letter = (n: number) => String.fromCharCode(65 + n);
  return letter(Math.floor(i / 676) % 26) + letter(Math.floor(i / 26) % 26) + letter(i % 26);
}

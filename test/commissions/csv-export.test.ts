import { parse } from "csv-parse/sync";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Commission } from "../../src/commissions/index.js";
import { CSV_HEADER, csvRow } from "../../src/commissions/testing.js";
import type { DealDetail } from "../../src/deals/index.js";
import { Api, createDeal, ok, repOnPlan } from "../factories-commissions.js";
import { createTestApp, type TestApp } from "../harness.js";

/** #13.35: CSV exports a spreadsheet opens safely and intact, and standard parsers read back exactly. */

const COLUMNS = CSV_HEADER.split(",");
/** Cells a spreadsheet would run as a formula (OWASP CSV injection): = + - @ TAB CR. */
const TRIGGERS = ["=", "+", "-", "@", "\t", "\r"];
const UNICODE = 'ü 日本 =HYPERLINK("http://evil.example","x")';

const parseCsv = (text: string): string[][] => parse(text, { bom: true, relax_column_count: false });

function sampleLine(overrides: Partial<Record<string, unknown>> = {}): Commission {
  return {
    id: "com_1",
    deal_id: "deal_1",
    user_id: "usr_1",
    plan_id: "plan_1",
    plan_version: 1,
    spiff_id: null,
    kind: "plan",
    period: "2026-Q3",
    amount: 1000,
    status: "pending",
    locked: false,
    explanation: { summary: "10,000.00 × 10% = 1,000.00" },
    calculated_at: "2026-11-22T10:00:00.000Z",
    ...overrides,
  } as Commission;
}

/** Sets the value behind one CSV column (explanation_summary lives inside explanation). */
function withColumn(column: string, value: string): Commission {
  if (column === "explanation_summary") return sampleLine({ explanation: { summary: value } });
  return sampleLine({ [column]: value });
}

describe("#13.35 CSV cells: text neutralised as OWASP advises, numbers left numbers", () => {
  const textColumns = COLUMNS.filter((c) => c !== "amount");
  const cases = textColumns.flatMap((column) => TRIGGERS.map((trigger) => [column, trigger] as const));
  it.each(cases)("%s starting with %j gets a leading apostrophe and parses back exactly", (column, trigger) => {
    const value = `${trigger}cmd|' /C calc'!A0`;
    const [row] = parseCsv(`${csvRow(withColumn(column, value))}\r\n`);
    expect(row?.[COLUMNS.indexOf(column)]).toBe(`'${value}`);
  });

  it.each([
    [-50, "-50.00"],
    [-0.01, "-0.01"],
    [1234.5, "1234.50"],
    [0, "0.00"],
  ])("amount %d stays the number %s (never prefixed)", (amount, text) => {
    const [row] = parseCsv(`${csvRow(sampleLine({ amount }))}\r\n`);
    expect(row?.[COLUMNS.indexOf("amount")]).toBe(text);
  });

  it("any summary: parsed back as itself, or with one apostrophe when it starts with a trigger", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (summary) => {
        const [row] = parseCsv(`${csvRow(withColumn("explanation_summary", summary))}\r\n`);
        const cell = row?.[COLUMNS.indexOf("explanation_summary")];
        const dangerous = TRIGGERS.some((t) => summary.startsWith(t));
        expect(cell).toBe(dangerous ? `'${summary}` : summary);
        expect(row).toHaveLength(COLUMNS.length);
      }),
    );
  });
});

describe("#13.35 CSV responses: BOM, Content-Disposition, ETag and 304", () => {
  let t: TestApp;
  let admin: Api;
  let reader: Api;
  beforeAll(async () => {
    t = await createTestApp();
    admin = new Api(t);
    reader = new Api(t, "read");
  });
  afterAll(() => t?.close());

  /** A rep with a deal named with non-ASCII and formula text, and an adjustment of -50.00 whose reason is too. */
  async function repWithLines() {
    const { user } = await repOnPlan(admin, { tiers: null, quota: null, base_rate: 0.1 });
    const deal = await createDeal(admin, user.id, {
      opportunity_name: UNICODE,
      arr_amount: 10000,
      close_date: "2026-07-15",
    });
    const adjustment = { deal_id: deal.id, user_id: user.id, amount: -50, reason: UNICODE, period: "2026-Q3" };
    ok<Commission>(await admin.post("/commissions/adjustments", adjustment), 201);
    return { user, deal };
  }

  /** Each export both ways: its own `.csv` operation, and the JSON operation asked for `Accept: text/csv`. */
  const statement = (userId: string) => `/users/${userId}/statement`;
  const exports = [
    [
      "GET /commissions.csv",
      (id: string) => `/commissions.csv?user_id=${id}`,
      false,
      (id: string) => `/commissions?user_id=${id}`,
      () => `commissions.csv`,
    ],
    [
      "GET /commissions, Accept: text/csv",
      (id: string) => `/commissions?user_id=${id}`,
      true,
      (id: string) => `/commissions?user_id=${id}`,
      () => `commissions.csv`,
    ],
    [
      "GET /users/{id}/statement.csv",
      (id: string) => `${statement(id)}.csv?period=2026-Q3`,
      false,
      (id: string) => `${statement(id)}?period=2026-Q3`,
      (id: string) => `statement-${id}-2026-Q3.csv`,
    ],
    [
      "GET /users/{id}/statement, Accept: text/csv",
      (id: string) => `${statement(id)}?period=2026-Q3`,
      true,
      (id: string) => `${statement(id)}?period=2026-Q3`,
      (id: string) => `statement-${id}-2026-Q3.csv`,
    ],
  ] as const;
  const csvOf = (accept: boolean, headers: Record<string, string> = {}) =>
    accept ? { accept: "text/csv", ...headers } : headers;

  it.each(exports)(
    "%s: a BOM, then exact values a BOM-aware parser reads back",
    async (_name, url, accept, jsonUrl, filename) => {
      const { user } = await repWithLines();
      const res = await reader.get(url(user.id), csvOf(accept));
      expect(res.statusCode).toBe(200);
      expect(res.headers["content-type"]).toBe("text/csv; charset=utf-8");
      expect(res.headers["content-disposition"]).toBe(`attachment; filename="${filename(user.id)}"`);
      expect(res.rawPayload.subarray(0, 3)).toEqual(Buffer.from([0xef, 0xbb, 0xbf]));
      const rows = parseCsv(res.body);
      expect(rows[0]).toEqual(COLUMNS);
      const json = ok(await reader.get(jsonUrl(user.id))) as { data?: Commission[]; lines?: Commission[] };
      const lines = json.data ?? json.lines ?? [];
      expect(lines.map((l) => l.kind).sort()).toEqual(["adjustment", "plan"]);
      expect(rows.slice(1)).toEqual(
        lines.map((l) => [
          l.id,
          l.deal_id,
          l.user_id,
          l.kind,
          l.period,
          l.amount.toFixed(2),
          l.status,
          l.plan_id ?? "",
          l.spiff_id ?? "",
          l.calculated_at,
          l.explanation.summary,
          l.currency,
        ]),
      );
      const adjustment = rows.find((r) => r[3] === "adjustment")!;
      expect(adjustment[5]).toBe("-50.00");
      expect(adjustment[10]).toBe(`Adjustment -50.00 by admin key: ${UNICODE}`);
    },
  );

  it.each(exports)(
    "%s: a strong ETag; If-None-Match → 304, a change → a new ETag",
    async (_name, url, accept, jsonUrl) => {
      const { user, deal } = await repWithLines();
      const first = await reader.get(url(user.id), csvOf(accept));
      const etag = first.headers.etag as string;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await reader.get(url(user.id), csvOf(accept));
      expect(again.headers.etag).toBe(etag);
      expect(again.body).toBe(first.body);
      const cached = await reader.get(url(user.id), csvOf(accept, { "if-none-match": etag }));
      expect(cached.statusCode).toBe(304);
      expect(cached.body).toBe("");
      ok<DealDetail>(await admin.post(`/deals/${deal.id}/approve`));
      const changed = await reader.get(url(user.id), csvOf(accept, { "if-none-match": etag }));
      expect(changed.statusCode).toBe(200);
      expect(changed.headers.etag).not.toBe(etag);
      const json = await reader.get(jsonUrl(user.id), { "if-none-match": etag });
      expect(json.statusCode).toBe(200);
    },
  );

  it("#26 the .csv operations answer the bytes Accept: text/csv does, and take no page", async () => {
    const { user } = await repWithLines();
    for (const [own, negotiated] of [
      [`/commissions.csv?user_id=${user.id}`, `/commissions?user_id=${user.id}`],
      [`${statement(user.id)}.csv?period=2026-Q3`, `${statement(user.id)}?period=2026-Q3`],
    ]) {
      const csv = await reader.get(own!);
      expect(csv.rawPayload.equals((await reader.get(negotiated!, { accept: "text/csv" })).rawPayload)).toBe(true);
      // Its one representation does not vary with Accept (compression's Accept-Encoding it may).
      expect(String(csv.headers.vary).split(", ")).not.toContain("Accept");
    }
    const paged = await reader.get(`/commissions.csv?user_id=${user.id}&page=2`);
    expect([paged.statusCode, paged.json().error.details]).toEqual([
      422,
      [{ param: "page", message: "is not a recognized query parameter" }],
    ]);
  });
});

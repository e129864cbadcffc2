import { describe, expect, it } from "vitest";
import { type Commission, csvText } from "../../src/commissions/index.js";
import { pendingAdjustment } from "../../web/src/pages/dispute-queue/adjustment.js";
import { linesCsv } from "../../web/src/pages/payouts/csv.js";

describe("the dispute queue's adjustment preview (API.md §4 Disputes)", () => {
  it.each([
    // outcome, amount, expected, current → what the resolution writes
    ["partially_approved", 1400.05, 1500, 1234.57, { accepted: 1400.05, adjustment: 165.48 }],
    ["partially_approved", 1000, null, 1234.57, { accepted: 1000, adjustment: -234.57 }],
    ["approved", null, 1500, 1234.57, { accepted: 1500, adjustment: 265.43 }],
    ["approved", 0.3, 1500, 0.1, { accepted: 0.3, adjustment: 0.2 }],
    ["approved", null, null, 1234.57, null],
    ["approved", 1234.57, 1500, 1234.57, null],
    ["partially_approved", null, 1500, 1234.57, null],
    ["denied", null, 1500, 1234.57, null],
    [null, 1400, 1500, 1234.57, null],
  ] as const)("%s, amount %s, expected %s, current %s → %j", (outcome, amount, expected, current, written) => {
    expect(pendingAdjustment(outcome, amount, expected, current)).toEqual(written);
  });
});

const line = (overrides: Partial<Commission>): Commission => ({
  id: "com_1",
  deal_id: "deal_1",
  user_id: "usr_1",
  plan_id: "plan_1",
  plan_version: 1,
  spiff_id: null,
  kind: "plan",
  period: "2026-Q4",
  amount: 220,
  status: "approved",
  locked: true,
  explanation: { summary: 'Tier 1, "base" rate, 10%' } as Commission["explanation"],
  calculated_at: "2026-11-22T10:00:00.000Z",
  currency: "USD",
  payout_run_id: null,
  draw_id: null,
  ...overrides,
});

describe("the payout CSV is the API's commission CSV, byte for byte", () => {
  it("BOM, header, RFC 4180 quoting, 2-decimal amounts, formula cells defused, CRLF", () => {
    const lines = [
      line({}),
      line({ id: "com_2", kind: "adjustment", amount: -12.5, plan_id: null, plan_version: null }),
      line({
        id: "com_3",
        kind: "spiff",
        amount: 1000.1,
        spiff_id: "spiff_1",
        explanation: { summary: "=HYPERLINK(evil)\nsecond line" } as Commission["explanation"],
      }),
    ];
    expect(linesCsv(lines)).toBe(csvText(lines));
    expect(linesCsv(lines)).toContain(",220.00,");
    expect(linesCsv([])).toBe(csvText([]));
  });
});

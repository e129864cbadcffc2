import { ID } from "./world.js";

/** API.md §17's A2 in the examples' world: Ana's 1,000.00 line on a 36-month contract, commensurate renewals. */

const LINE = "com_01J5RT4X7Z0B3D6F9H2K5M8P1R";
const months = (count: number) =>
  Array.from({ length: count }, (_, i) => `${2026 + Math.floor(i / 12)}-${String((i % 12) + 1).padStart(2, "0")}`);

const settings = {
  expected_customer_life_months: 60,
  renewal_commission_commensurate: true,
  practical_expedient: true,
  capitalize_kinds: ["plan", "spiff", "override"],
  accounts: {
    deferred_commissions: "Deferred commissions",
    commission_expense: "Commission expense",
    clawback_receivable: "Commission clawbacks receivable",
    commissions_payable: "Commissions payable",
  },
};

const schedule = months(36).map((month, i) => ({
  month,
  addition: i === 0 ? 1000 : 0,
  adjustment: 0,
  amortization: i === 35 ? 27.7 : 27.78,
  clawback: 0,
  impairment: 0,
  closing: Math.round((1000 - 27.78 * (i + 1)) * 100) / 100 > 0 ? Math.round((1000 - 27.78 * (i + 1)) * 100) / 100 : 0,
}));

const row = (date: string, account: string, debit: number | null, credit: number | null, memo: string) => ({
  date,
  account,
  debit,
  credit,
  memo,
  deal_id: ID.deal,
  line_id: LINE,
  currency: "USD",
});

export const ACCOUNTING_EXAMPLES: Record<string, unknown> = {
  AccountingSettings: { ...settings, updated_at: "2026-01-02T09:00:00.000Z" },
  AccountingAsset: {
    line_id: LINE,
    deal_id: ID.deal,
    user_id: ID.ana,
    kind: "plan",
    currency: "USD",
    amount: 1000,
    treatment: "capitalized",
    months: 36,
    start_month: "2026-01",
    approved_on: "2026-01-10",
    balance: 833.32,
    schedule,
  },
  AccountingRollForward: {
    from: "2026-01",
    to: "2026-06",
    data: [
      {
        currency: "USD",
        opening: 0,
        additions: 1000,
        adjustments: 0,
        amortization: 166.68,
        clawbacks: 0,
        impairment: 0,
        closing: 833.32,
        current: 333.36,
        noncurrent: 499.96,
      },
    ],
  },
  AccountingJournalPage: {
    data: [
      row(
        "2026-01-10",
        "Deferred commissions",
        1000,
        null,
        `Commission capitalized: plan line ${LINE} of deal ${ID.deal}`,
      ),
      row(
        "2026-01-10",
        "Commissions payable",
        null,
        1000,
        `Commission capitalized: plan line ${LINE} of deal ${ID.deal}`,
      ),
      row(
        "2026-01-31",
        "Commission expense",
        27.78,
        null,
        `Amortization 2026-01: plan line ${LINE} of deal ${ID.deal}`,
      ),
      row(
        "2026-01-31",
        "Deferred commissions",
        null,
        27.78,
        `Amortization 2026-01: plan line ${LINE} of deal ${ID.deal}`,
      ),
    ],
    meta: {
      page: 1,
      per_page: 25,
      total: 4,
      debit: 1027.78,
      credit: 1027.78,
      totals: [{ currency: "USD", debit: 1027.78, credit: 1027.78 }],
    },
  },
};

export const ACCOUNTING_REQUESTS: Record<string, unknown> = {
  putAccountingSettings: { renewal_commission_commensurate: true },
};

export const ACCOUNTING_EVENTS: Record<string, unknown> = {
  AccountingSettingsEvent: {
    id: "evt_01J9F1P3R6T9W2Y5A8C1E4G7J0",
    type: "accounting.settings_updated",
    created_at: "2026-01-02T09:00:00.000Z",
    data: { object: ACCOUNTING_EXAMPLES.AccountingSettings },
  },
};

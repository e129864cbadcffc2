import { z } from "zod";
import { Currency, MoneyOut } from "../http/commission-fields.js";
import { DateOut, Timestamp } from "../http/date-fields.js";
import { Id, QueryBoolean } from "../http/input-fields.js";
import { PageMeta, PageQuery } from "../http/pagination.js";

// Commission-cost accounting (API.md §17, ASC 340-40): the settings, the assets, the reports.

export const CAPITALIZE_KINDS = ["plan", "spiff", "override"] as const;
export const ACCOUNT_KEYS = [
  "deferred_commissions",
  "commission_expense",
  "clawback_receivable",
  "commissions_payable",
] as const;
export type AccountKey = (typeof ACCOUNT_KEYS)[number];

export const DEFAULT_ACCOUNTS: Record<AccountKey, string> = {
  deferred_commissions: "Deferred commissions",
  commission_expense: "Commission expense",
  clawback_receivable: "Commission clawbacks receivable",
  commissions_payable: "Commissions payable",
};

const AccountName = (key: AccountKey) =>
  z
    .string()
    .trim()
    .min(1, "must not be empty")
    .max(100, "must be at most 100 characters")
    // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
    .regex(/^[^\u0000-\u001f\u007f]*$/, "must not contain control characters")
    .default(DEFAULT_ACCOUNTS[key])
    .describe(`The journal's name for this account (default "${DEFAULT_ACCOUNTS[key]}").`);

const Accounts = z
  .strictObject({
    deferred_commissions: AccountName("deferred_commissions"),
    commission_expense: AccountName("commission_expense"),
    clawback_receivable: AccountName("clawback_receivable"),
    commissions_payable: AccountName("commissions_payable"),
  })
  .superRefine((a, ctx) => {
    const seen = new Map<string, string>();
    for (const key of ACCOUNT_KEYS) {
      const other = seen.get(a[key].toLowerCase());
      if (other) ctx.addIssue({ code: "custom", path: [key], message: `must differ from ${other}'s name` });
      seen.set(a[key].toLowerCase(), key);
    }
  });

export const PutAccountingSettingsBody = z.strictObject({
  expected_customer_life_months: z
    .number()
    .int("must be a whole number of months")
    .min(1, "must be at least 1")
    .max(240, "must be at most 240")
    .default(60)
    .describe("The customer's expected life in months (1–240, default 60): N when no contract dates say otherwise."),
  renewal_commission_commensurate: z
    .boolean()
    .default(false)
    .describe("Renewals earn a commission commensurate with this one: N is the contract's term (default false)."),
  practical_expedient: z
    .boolean()
    .default(true)
    .describe("Lines whose N is 12 months or less are expensed when approved (default true)."),
  capitalize_kinds: z
    .array(z.enum(CAPITALIZE_KINDS))
    .min(1, "must name at least one kind")
    .refine((kinds) => new Set(kinds).size === kinds.length, "must not repeat a kind")
    .default([...CAPITALIZE_KINDS])
    .describe("The line kinds that become assets (default all of plan, spiff, override)."),
  accounts: Accounts.default(DEFAULT_ACCOUNTS).describe("Account names in the journal; an omitted one is its default."),
});
export type PutAccountingSettingsBody = z.infer<typeof PutAccountingSettingsBody>;
export type AccountingSettingsValues = z.output<typeof PutAccountingSettingsBody>;

export const AccountingSettings = z
  .object({
    expected_customer_life_months: z.number().int(),
    renewal_commission_commensurate: z.boolean(),
    practical_expedient: z.boolean(),
    capitalize_kinds: z.array(z.enum(CAPITALIZE_KINDS)),
    accounts: z.object({
      deferred_commissions: z.string(),
      commission_expense: z.string(),
      clawback_receivable: z.string(),
      commissions_payable: z.string(),
    }),
    updated_at: Timestamp,
  })
  .meta({ id: "AccountingSettings" });
export type AccountingSettings = z.infer<typeof AccountingSettings>;

const MONTH_MESSAGE = "must be a month YYYY-MM from 0001-01 to 9999-12";
export const Month = z
  .string()
  .regex(/^(?!0000)\d{4}-(0[1-9]|1[0-2])$/, MONTH_MESSAGE)
  .describe("A calendar month, YYYY-MM.");

export const ScheduleQuery = PageQuery.extend({
  deal_id: Id.optional().describe("dl_…: the deal's assets."),
  user_id: Id.optional().describe("usr_…: the person's assets."),
  month: Month.optional().describe("Assets on the books in this month (approved in it or before, not yet gone)."),
})
  .strict()
  .superRefine((q, ctx) => {
    if (q.deal_id === undefined && q.user_id === undefined && q.month === undefined) {
      ctx.addIssue({ code: "custom", path: ["deal_id"], message: "give at least one of deal_id, user_id, month" });
    }
  });
export type ScheduleQuery = z.infer<typeof ScheduleQuery>;

export const ScheduleMonth = z
  .object({
    month: z.string().describe("YYYY-MM"),
    addition: MoneyOut,
    adjustment: MoneyOut.describe("An adjustment of the person's on the deal, re-spread over the months left."),
    amortization: MoneyOut.describe("Straight line; the approval month also takes the months before it."),
    clawback: MoneyOut.describe("What clawbacks took off the balance (their excess reduces expense)."),
    impairment: MoneyOut.describe("A cancellation: what was left after the month's amortization and clawbacks."),
    closing: MoneyOut,
  })
  .meta({ id: "AccountingScheduleMonth" });

export const AccountingAsset = z
  .object({
    line_id: z.string().describe("com_…: the capitalized line."),
    deal_id: z.string(),
    user_id: z.string(),
    kind: z.enum(CAPITALIZE_KINDS),
    currency: z.string(),
    amount: MoneyOut.describe("C: the line's amount when its deal was approved."),
    treatment: z.enum(["capitalized", "expensed"]).describe("expensed: N ≤ 12 under the practical expedient."),
    months: z.number().int().describe("N: the months of the straight line."),
    start_month: z.string().describe("YYYY-MM: contract_start's month, else the approval month."),
    approved_on: DateOut,
    balance: MoneyOut.describe("The closing balance of `month` when given, else of the current month (UTC)."),
    schedule: z
      .array(ScheduleMonth)
      .describe("From the approval month to the month the balance reaches 0; empty when expensed."),
  })
  .meta({ id: "AccountingAsset" });
export type AccountingAsset = z.infer<typeof AccountingAsset>;

export const RollForwardQuery = z
  .strictObject({
    from: Month,
    to: Month,
  })
  .superRefine((q, ctx) => {
    if (q.from > q.to) ctx.addIssue({ code: "custom", path: ["to"], message: "must not be before from" });
  });
export type RollForwardQuery = z.infer<typeof RollForwardQuery>;

export const RollForwardRow = z
  .object({
    currency: z.string(),
    opening: MoneyOut,
    additions: MoneyOut,
    adjustments: MoneyOut,
    amortization: MoneyOut,
    clawbacks: MoneyOut,
    impairment: MoneyOut,
    closing: MoneyOut.describe("opening + additions + adjustments − amortization − clawbacks − impairment."),
    current: MoneyOut.describe("The amortization scheduled in the 12 months after `to`."),
    noncurrent: MoneyOut.describe("closing − current."),
  })
  .meta({ id: "AccountingRollForwardRow" });

export const RollForward = z
  .object({
    from: z.string(),
    to: z.string(),
    data: z.array(RollForwardRow).describe("One row per currency with an asset on the books in or before the span."),
  })
  .meta({ id: "AccountingRollForward" });
export type RollForward = z.infer<typeof RollForward>;

export const JournalQuery = PageQuery.extend({
  month: Month,
  currency: Currency.optional(),
  summary: QueryBoolean.optional().describe("true: one row per account and currency instead of every entry."),
}).strict();
export type JournalQuery = z.infer<typeof JournalQuery>;
export type JournalFilter = Omit<JournalQuery, "page" | "per_page">;

export const JournalRow = z
  .object({
    date: DateOut.describe("The event's day; amortization on the month's last day."),
    account: z.string(),
    debit: MoneyOut.nullable(),
    credit: MoneyOut.nullable(),
    memo: z.string(),
    deal_id: z.string().nullable(),
    line_id: z.string().nullable(),
    currency: z.string(),
  })
  .meta({ id: "AccountingJournalRow" });
export type JournalRow = z.infer<typeof JournalRow>;

export const CurrencyTotals = z.object({ currency: z.string(), debit: MoneyOut, credit: MoneyOut });

export const JournalPage = z
  .object({
    data: z.array(JournalRow),
    meta: PageMeta.extend({
      debit: MoneyOut.nullable().describe("Σ debits of every page; null when the rows hold several currencies."),
      credit: MoneyOut.nullable().describe("Σ credits of every page; null when the rows hold several currencies."),
      totals: z.array(CurrencyTotals).describe("Σ debits and credits per currency (they are equal: balanced)."),
    }),
  })
  .meta({ id: "AccountingJournalPage" });
export type JournalPage = z.infer<typeof JournalPage>;

import { z } from "zod";
import { StatementLine } from "../commissions/index.js";
import { PAYOUT_RUN_STATUSES } from "../enums.js";
import { Currency, MoneyOut, RecoveryPercent } from "../http/commission-fields.js";
import { DateOut, IsoDate, Timestamp } from "../http/date-fields.js";
import { commaList, Id } from "../http/input-fields.js";
import { listOf, PageQuery } from "../http/pagination.js";

// Payout runs (API.md §13): a run snapshots what to pay through a date, nets it per person and currency,
// and pays it on finalize. One shape: the run (its summary, as lists and events show it), with its payees,
// and with a page of its lines (GET by id and the writes).

export const PayoutRunStatus = z.enum(PAYOUT_RUN_STATUSES);

/** The kinds a run selects and a payee's gross splits by (§13; `draw` arrives with §18). */
export const RUN_LINE_KINDS = ["plan", "spiff", "override", "adjustment", "clawback", "draw"] as const;

export const PayoutRunTotal = z
  .object({
    currency: z.string(),
    payees: z.number().int(),
    lines: z.number().int(),
    lines_total: MoneyOut,
    recovered: MoneyOut,
    net_pay: MoneyOut,
    deficit_carried_forward: MoneyOut,
  })
  .meta({ id: "PayoutRunTotal" });
export type PayoutRunTotal = z.infer<typeof PayoutRunTotal>;

export const PayoutRunSummary = z
  .object({
    id: z.string().describe("prun_…"),
    status: PayoutRunStatus,
    through: DateOut.describe("Lines eligible on or before this date are selected."),
    pay_date: DateOut,
    currency: z.string().nullable().describe("Only lines in this currency; null: every currency."),
    user_ids: z.array(z.string()).nullable().describe("Only these people's lines; null: everyone's."),
    max_recovery_percent: z.number().describe("At most this percent of a payee's positive lines recovers a deficit."),
    period_start: DateOut,
    period_end: DateOut.describe("= through."),
    totals: z.array(PayoutRunTotal).describe("Per currency, by currency code."),
    created_at: Timestamp,
    created_by: z
      .string()
      .describe("Who created it: a person's id (usr_…), an API key's id (key_…), or `owner` (the cts CLI)."),
    finalized_at: Timestamp.nullable(),
    finalized_by: z.string().nullable().describe("As created_by; null until finalized."),
    cancelled_at: Timestamp.nullable(),
  })
  .meta({ id: "PayoutRunSummary" });
export type PayoutRunSummary = z.infer<typeof PayoutRunSummary>;

export const PayoutGross = z
  .object({
    plan: MoneyOut,
    spiff: MoneyOut,
    override: MoneyOut,
    adjustment: MoneyOut,
    clawback: MoneyOut,
    draw_advance: MoneyOut,
    draw_recovery: MoneyOut,
  })
  .describe("Signed sums of the payee's lines by kind.");
export type PayoutGross = z.infer<typeof PayoutGross>;

export const PayoutRunPayee = z
  .object({
    user_id: z.string(),
    name: z.string().describe("Copied from the user when the run was created, and again when finalized."),
    email: z.string(),
    external_id: z.string().nullable(),
    payroll_id: z.string().nullable(),
    currency: z.string(),
    gross: PayoutGross,
    line_count: z.number().int(),
    lines_total: MoneyOut.describe("L: Σ of the lines."),
    positive_total: MoneyOut.describe("P: Σ of the positive lines."),
    deficit_brought_forward: MoneyOut.describe("D0: the deficit carried from the person's earlier runs."),
    recovery_cap: MoneyOut.describe("P × max_recovery_percent / 100, truncated to the cent."),
    recovered: MoneyOut,
    net_pay: MoneyOut.describe("Never negative."),
    deficit_carried_forward: MoneyOut,
  })
  .meta({ id: "PayoutRunPayee" });
export type PayoutRunPayee = z.infer<typeof PayoutRunPayee>;

export const PayoutRun = PayoutRunSummary.extend({
  payees: z.array(PayoutRunPayee).describe("Per person and currency, by name, user id, currency."),
}).meta({ id: "PayoutRun" });
export type PayoutRun = z.infer<typeof PayoutRun>;

export const PayoutRunDetail = PayoutRun.extend({
  lines: listOf(StatementLine).describe(
    "A page of the run's lines (page, per_page, user_id, kind), each with its deal as a statement line has it.",
  ),
}).meta({ id: "PayoutRunDetail" });
export type PayoutRunDetail = z.infer<typeof PayoutRunDetail>;

export const CreatePayoutRunBody = z.strictObject({
  through: IsoDate.describe("Lines eligible on or before it; not after today (UTC)."),
  pay_date: IsoDate.describe("Not before through."),
  currency: Currency.optional().describe("Only this currency's lines."),
  user_ids: z.array(Id).min(1).max(1000).optional().describe("Only these people's lines."),
  max_recovery_percent: RecoveryPercent.optional().describe(
    "At most this % of a payee's positive lines recovers a deficit (default 100).",
  ),
});
export type CreatePayoutRunBody = z.infer<typeof CreatePayoutRunBody>;

export const ListPayoutRunsQuery = PageQuery.extend({
  status: commaList(PAYOUT_RUN_STATUSES, "a run status").optional(),
  currency: z.string().optional().describe("Runs limited to this currency."),
}).strict();
export type ListPayoutRunsQuery = z.infer<typeof ListPayoutRunsQuery>;

export const RunLinesQuery = PageQuery.extend({
  user_id: z.string().optional().describe("Only this person's lines."),
  kind: commaList(RUN_LINE_KINDS, "a line kind").optional(),
}).strict();
export type RunLinesQuery = z.infer<typeof RunLinesQuery>;

export const DEFAULT_LINES_QUERY: RunLinesQuery = { page: 1, per_page: 25 };

const Code = (max: number, what: string) =>
  z
    .string()
    .regex(new RegExp(`^[A-Za-z0-9]{1,${max}}$`), `must be 1 to ${max} letters or digits`)
    .describe(what);

/** GET /payout-runs/{id}/export: each format's own parameters; another format's → 422. */
export const ExportPayoutRunQuery = z
  .strictObject({
    format: z.enum(["generic", "adp", "gusto"]).default("generic").describe("generic (default), adp or gusto."),
    currency: Currency.optional().describe(
      "adp, gusto: the one currency the file pays (default: the run's only one; required when it has several).",
    ),
    co_code: z
      .string()
      .regex(/^[A-Za-z0-9]{2,3}$/, "must be 2 or 3 letters or digits")
      .optional()
      .describe("adp (required): the company code, 2–3 letters or digits."),
    batch_id: Code(8, "adp (required): the batch, 1–8 letters or digits.").optional(),
    earnings_code: Code(3, "adp: the earnings code of the commission (default C).").optional(),
    bonus_earnings_code: Code(
      3,
      "adp: when given, the bonus part (the SPIFFs, up to net_pay) gets its own row.",
    ).optional(),
  })
  .superRefine((q, ctx) => {
    const own: Record<string, readonly string[]> = {
      generic: [],
      adp: ["currency", "co_code", "batch_id", "earnings_code", "bonus_earnings_code"],
      gusto: ["currency"],
    };
    for (const param of ["currency", "co_code", "batch_id", "earnings_code", "bonus_earnings_code"] as const) {
      if (q[param] !== undefined && !own[q.format]!.includes(param)) {
        ctx.addIssue({ code: "custom", path: [param], message: `is not a parameter of format ${q.format}` });
      }
    }
    if (q.format === "adp") {
      for (const param of ["co_code", "batch_id"] as const) {
        if (q[param] === undefined)
          ctx.addIssue({ code: "custom", path: [param], message: "is required for format adp" });
      }
    }
  });
export type ExportPayoutRunQuery = z.infer<typeof ExportPayoutRunQuery>;

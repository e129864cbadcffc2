import { z } from "zod";
import { DateOut, IsoDate, Timestamp } from "../http/date-fields.js";
import { PageQuery } from "../http/pagination.js";
import { rateProblem } from "./rate-text.js";

/** The most codes one set may hold (API.md §15). */
export const MAX_RATE_CODES = 200;

const CODE_SHAPE = /^[A-Z]{3}$/;
const CODE_MESSAGE = "must be a currency code of 3 uppercase letters (ISO 4217), such as USD";

/** A currency code as rate tables write them: ISO 4217-shaped (3 uppercase letters). */
export const RateCode = z
  .string()
  .regex(CODE_SHAPE, CODE_MESSAGE)
  .describe("ISO 4217-shaped code: 3 uppercase letters.");

const RATE_TEXT = "1 base = this many units of the code: a decimal string > 0, ≤ 12 integer digits, ≤ 10 decimals.";

/** `{code: "rate"}` as sent: each code ISO-shaped, each rate a plain decimal string > 0. */
const RatesInput = z
  .record(z.string(), z.string())
  .superRefine((rates, ctx) => {
    const codes = Object.keys(rates);
    if (codes.length === 0) ctx.addIssue({ code: "custom", message: "must hold at least 1 code" });
    if (codes.length > MAX_RATE_CODES) {
      ctx.addIssue({ code: "custom", message: `must hold at most ${MAX_RATE_CODES} codes` });
    }
    for (const code of codes) {
      if (!CODE_SHAPE.test(code))
        ctx.addIssue({ code: "custom", path: [code], message: `is not a code: ${CODE_MESSAGE}` });
      const problem = rateProblem(rates[code]!);
      if (problem) ctx.addIssue({ code: "custom", path: [code], message: problem });
    }
  })
  .describe(`{"EUR": "0.92", …}: 1 to ${MAX_RATE_CODES} codes, not the base. ${RATE_TEXT}`);

export const RatesParams = z.strictObject({ date: IsoDate.describe("The day these rates are for (YYYY-MM-DD).") });
export type RatesParams = z.infer<typeof RatesParams>;

const putFields = {
  base: RateCode.describe("1 unit of this currency is what each rate prices."),
  rates: RatesInput,
};

/** A code equal to the base is refused: the base holds itself at 1. */
function baseNotListed(body: { base: string; rates: Record<string, string> }, ctx: z.RefinementCtx): void {
  if (Object.hasOwn(body.rates, body.base)) {
    ctx.addIssue({
      code: "custom",
      path: ["rates", body.base],
      message: `must not be the base ${body.base}: the base is 1 by definition`,
    });
  }
}

export const PutRatesBody = z.strictObject(putFields).superRefine(baseNotListed);
export type PutRatesBody = z.infer<typeof PutRatesBody>;

export const ExchangeRateSet = z
  .object({
    date: DateOut,
    base: z.string().describe("ISO 4217 code: 1 unit of it is what each rate prices."),
    rates: z
      .record(z.string(), z.string())
      .describe('Units of each code per 1 base, as plain exact decimal strings ("0.920" is answered "0.92").'),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "ExchangeRateSet" });
export type ExchangeRateSet = z.infer<typeof ExchangeRateSet>;

export const ExchangeRateSetWritten = ExchangeRateSet.extend({
  recalculation_job_id: z
    .string()
    .nullable()
    .describe(
      "job_… when the recalculation of the pending deals this change reaches runs in the background; else null.",
    ),
}).meta({ id: "ExchangeRateSetWritten" });
export type ExchangeRateSetWritten = z.infer<typeof ExchangeRateSetWritten>;

export const ListRatesQuery = PageQuery.extend({
  date: IsoDate.optional().describe("Only this day's sets."),
  base: RateCode.optional().describe("Only sets of this base."),
}).strict();
export type ListRatesQuery = z.infer<typeof ListRatesQuery>;

/** The set a GET or DELETE of one day names: its base (required). */
export const BaseQuery = z.strictObject({ base: RateCode.describe("The base of the set (required).") });
export type BaseQuery = z.infer<typeof BaseQuery>;

/** A plan's or SPIFF's fx_max_age_days (API.md §15): how many days before close_date a rate may be dated. */
export const FxMaxAgeDays = z
  .number()
  .int()
  .min(0)
  .max(31)
  .describe("A conversion takes a rate dated at most this many days before close_date (0–31).");

/** put_exchange_rates' arguments (MCP): the path's date and the body, as one object. */
export const PutRatesArguments = z.strictObject({ ...RatesParams.shape, ...putFields }).superRefine(baseNotListed);

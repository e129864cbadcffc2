import { z } from "zod";
import { DEAL_TYPES } from "../enums.js";
import { AppError, type ErrorDetail } from "../errors.js";
import { MAX_MINOR_UNITS, minorUnits, tooManyDecimals } from "../money/index.js";

// Fields of commission terms that comp plans, SPIFFs, disputes, adjustments and deals share: money, rates,
// percents, currencies, deal types, periods. Kept on the lowest floor so every feature can use them.

/**
 * Decimal inputs (API.md §2): JSON numbers, checked on their shortest round-trip text so 0.1 stays
 * "0.1" and 0.30000000000000004 is refused, then carried as exact decimal strings — never as floats.
 */
function decimalInput(places: number, min: number, max: number, minExclusive = false) {
  const shape = new RegExp(`^-?\\d+(\\.\\d{1,${places}})?$`);
  return z
    .number({ error: "must be a number" })
    .superRefine((n, ctx) => {
      // The range first: 1e308 is too large, whatever its text says about decimal places.
      if (minExclusive ? n <= min : n < min) {
        ctx.addIssue({ code: "custom", message: `must be ${minExclusive ? "greater than" : "at least"} ${min}` });
      } else if (n > max) {
        ctx.addIssue({ code: "custom", message: `must be at most ${max}` });
      } else if (!shape.test(String(n))) {
        ctx.addIssue({ code: "custom", message: `must have at most ${places} decimal places` });
      }
    })
    .transform((n) => String(n));
}

const MONEY_MAX = 999_999_999_999.99;

// Money's decimals depend on its currency, another field (API.md §15): the schema allows the most any
// currency has, and each service checks its amounts against their currency with minorUnitProblems.
const MINOR_UNITS = "minor units";

/** Money ≥ 0 with at most its currency's decimals, as an exact decimal string. */
export const Money = decimalInput(MAX_MINOR_UNITS, 0, MONEY_MAX).describe(`Money ≥ 0 (${MINOR_UNITS}).`);
/** Signed money (an adjustment, a clawback): at most its currency's decimals, never 0. */
export const SignedMoney = decimalInput(MAX_MINOR_UNITS, -MONEY_MAX, MONEY_MAX)
  .refine((s) => Number(s) !== 0, { message: "must not be 0" })
  .describe(`Signed money, not 0 (${MINOR_UNITS}).`);

/** The message of an amount with more decimals than its currency has. */
export const minorUnitMessage = (currency: string): string =>
  `must have at most ${minorUnits(currency)} decimal places for ${currency}`;

/**
 * API.md §15: each amount given (null and undefined are skipped) has at most `currency`'s decimals; one
 * detail per amount that has more, named `prefix + field`.
 */
export function minorUnitProblems(
  currency: string,
  amounts: Record<string, string | number | null | undefined>,
  prefix = "",
): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const [field, value] of Object.entries(amounts)) {
    if (value === null || value === undefined || !tooManyDecimals(value, currency)) continue;
    details.push({ param: `${prefix}${field}`, message: minorUnitMessage(currency) });
  }
  return details;
}
/** A rate such as 0.1 (= 10 %): 0–10, at most 6 decimals. */
export const Rate = decimalInput(6, 0, 10).describe("A decimal rate (0.1 = 10 %), 0 to 10, at most 6 decimals.");
/** A deal-type multiplier: ≥ 0, at most 6 decimals. */
const Factor = decimalInput(6, 0, 1000).describe("A multiplier ≥ 0 with at most 6 decimals (1 = unchanged).");
/** Quota attainment where a tier starts (1.0 = 100 % of quota). */
export const Attainment = decimalInput(6, 0, 1000).describe("Quota attainment where the band starts: 1.0 = 100 %.");
/** A split percent: > 0 and ≤ 100, at most 4 decimals. */
export const Percent = decimalInput(4, 0, 100, true).describe("Percent of the credit, > 0 and ≤ 100, 4 decimals.");
/** A clawback percent (API.md §14): 0–100, at most 4 decimals. */
export const ClawbackPercent = decimalInput(4, 0, 100).describe("Percent clawed back, 0 to 100, at most 4 decimals.");

/** A payout run's recovery limit (API.md §13): 0–100, at most 4 decimals. */
export const RecoveryPercent = decimalInput(4, 0, 100).describe("Percent, 0 to 100, at most 4 decimals.");

/** minorUnitProblems as a 422 validation_error, when there is any. */
export function checkMinorUnits(
  currency: string,
  amounts: Record<string, string | number | null | undefined>,
  prefix = "",
): void {
  const details = minorUnitProblems(currency, amounts, prefix);
  if (details.length === 0) return;
  throw new AppError("validation_error", details.map((d) => `${d.param} ${d.message}`).join("; "), details);
}

/**
 * An amount as a filter: in a query string, digits with at most 3 decimals (no sign, exponent or
 * spaces); from MCP arguments, a JSON number. Carried as exact decimal text, compared as numeric in SQL.
 */
export const QueryMoney = z
  .preprocess(
    (value) => (typeof value === "number" ? String(value) : value),
    z
      .string()
      .regex(
        /^\d{1,12}(\.\d{1,3})?$/,
        "must be an amount ≥ 0 in digits with at most 3 decimals, such as 1500 or 1500.5",
      ),
  )
  .describe("Money ≥ 0, ≤ 3 decimals, such as 1500.5.");

/** The amount read back: its currency's minor-unit decimals at most (≤ 15 significant digits: exact as JSON). */
export const MoneyOut = z.number().describe("Money (minor units).");

// Active ISO 4217 codes (2024), so "usd" or "EURO" or "XYZ" are refused with a clear message.
const ISO_4217 = new Set(
  (
    "AED AFN ALL AMD ANG AOA ARS AUD AWG AZN BAM BBD BDT BGN BHD BIF BMD BND BOB BRL BSD BTN BWP BYN BZD " +
    "CAD CDF CHF CLP CNY COP CRC CUP CVE CZK DJF DKK DOP DZD EGP ERN ETB EUR FJD FKP GBP GEL GHS GIP GMD " +
    "GNF GTQ GYD HKD HNL HTG HUF IDR ILS INR IQD IRR ISK JMD JOD JPY KES KGS KHR KMF KPW KRW KWD KYD KZT " +
    "LAK LBP LKR LRD LSL LYD MAD MDL MGA MKD MMK MNT MOP MRU MUR MVR MWK MXN MYR MZN NAD NGN NIO NOK NPR " +
    "NZD OMR PAB PEN PGK PHP PKR PLN PYG QAR RON RSD RUB RWF SAR SBD SCR SDG SEK SGD SHP SLE SOS SRD SSP " +
    "STN SVC SYP SZL THB TJS TMT TND TOP TRY TTD TWD TZS UAH UGX USD UYU UZS VES VND VUV WST XAF XCD XCG " +
    "XOF XPF YER ZAR ZMW ZWG"
  ).split(" "),
);

export const Currency = z
  .string()
  .superRefine((code, ctx) => {
    if (!/^[A-Z]{3}$/.test(code)) {
      ctx.addIssue({ code: "custom", message: "must be an ISO 4217 code of 3 uppercase letters, such as USD" });
    } else if (!ISO_4217.has(code)) {
      ctx.addIssue({ code: "custom", message: `${code} is not an active ISO 4217 currency code` });
    }
  })
  .describe("ISO 4217 currency code, e.g. USD.");

export const DealType = z.enum(DEAL_TYPES);
export type DealType = z.infer<typeof DealType>;

/** `{deal_type: factor}`: keys must be deal types, named one by one when they are not. */
export const DealTypeMultipliers = z
  .record(z.string(), Factor)
  .superRefine((value, ctx) => {
    for (const key of Object.keys(value)) {
      if (!(DEAL_TYPES as readonly string[]).includes(key)) {
        ctx.addIssue({ code: "custom", path: [key], message: `is not a deal type (${DEAL_TYPES.join(", ")})` });
      }
    }
  })
  .describe("Factor per deal type (new_business, expansion, renewal, other); a type not listed counts 1.");

/** A period label of §5: "2026-07", "2026-Q3" or "2026". */
export const PeriodLabel = z
  .string()
  .regex(/^(?!0000)\d{4}(-(0[1-9]|1[0-2])|-Q[1-4])?$/, "must be a period such as 2026-07, 2026-Q3 or 2026")
  .describe("A calendar period: YYYY-MM, YYYY-Qn or YYYY.");

/** An amount in one currency (API.md §15: totals never add two currencies, so they come one per currency). */
export const CurrencyAmount = z.object({ currency: z.string(), amount: MoneyOut }).meta({ id: "CurrencyAmount" });

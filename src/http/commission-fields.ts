import { z } from "zod";
import { DEAL_TYPES } from "../enums.js";

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

/** Money ≥ 0 with at most 2 decimals, as an exact decimal string. */
export const Money = decimalInput(2, 0, MONEY_MAX).describe("Money: ≤ 2 decimals, ≥ 0.");
/** Signed money (an adjustment, a clawback): at most 2 decimals, never 0. */
export const SignedMoney = decimalInput(2, -MONEY_MAX, MONEY_MAX)
  .refine((s) => Number(s) !== 0, { message: "must not be 0" })
  .describe("Signed money: a number with at most 2 decimals, positive or negative, not 0.");
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

/**
 * An amount as a filter: in a query string, digits with at most 2 decimals (no sign, exponent or
 * spaces); from MCP arguments, a JSON number. Carried as exact decimal text, compared as numeric in SQL.
 */
export const QueryMoney = z
  .preprocess(
    (value) => (typeof value === "number" ? String(value) : value),
    z
      .string()
      .regex(
        /^\d{1,12}(\.\d{1,2})?$/,
        "must be an amount ≥ 0 in digits with at most 2 decimals, such as 1500 or 1500.5",
      ),
  )
  .describe("Money ≥ 0 with at most 2 decimals, such as 1500 or 1500.5.");

/** The amount read back: numeric text with ≤ 2 decimals is exactly representable as a JSON number. */
export const MoneyOut = z.number().describe("Money: ≤ 2 decimals.");

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

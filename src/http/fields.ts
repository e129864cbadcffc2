import { z } from "zod";
import "./zod-messages.js";

/** Field schemas shared by every resource, so one shape has one definition. */
export const Timestamp = z
  .string()
  .meta({ format: "date-time" })
  .describe("RFC 3339 UTC timestamp with milliseconds, e.g. 2026-11-22T10:00:00.000Z");

/** A calendar date in a response (inputs use IsoDate, which checks it). */
export const DateOut = z.string().meta({ format: "date" }).describe("Calendar date YYYY-MM-DD");

// Four-digit years that PostgreSQL stores (year 0000 does not exist there) and JS Date round-trips.
const FIRST_DAY = "0001-01-01";
const LAST_DAY = "9999-12-31";
const FIRST_MS = Date.parse(`${FIRST_DAY}T00:00:00.000Z`);
const LAST_MS = Date.parse(`${LAST_DAY}T23:59:59.999Z`);

const DATE_MESSAGE = `must be a date YYYY-MM-DD from ${FIRST_DAY} to ${LAST_DAY}`;
/** One date schema for every date: bodies, query strings and MCP arguments. */
export const IsoDate = z
  .string()
  .superRefine((s, ctx) => {
    const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s);
    if (!parts || parts[1] === "0000") {
      ctx.addIssue({ code: "custom", message: DATE_MESSAGE });
      return;
    }
    // setUTCFullYear, not Date.UTC: the latter reads years 0-99 as 1900-1999.
    const day = new Date(0);
    day.setUTCFullYear(Number(parts[1]), Number(parts[2]) - 1, Number(parts[3]));
    if (day.toISOString().slice(0, 10) !== s) {
      ctx.addIssue({ code: "custom", message: "must be a real calendar date" });
    }
  })
  .meta({ format: "date" })
  .describe(`${FIRST_DAY} to ${LAST_DAY}`);

const TIMESTAMP_MESSAGE = `must be an RFC 3339 timestamp such as 2026-11-22T10:00:00.000Z, from ${FIRST_DAY}T00:00:00.000Z to ${LAST_DAY}T23:59:59.999Z`;
const RFC_3339 = /^\d{4}-\d{2}-\d{2}[Tt]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;
/** One timestamp schema for every timestamp input; the instant itself must lie in the date range. */
export const TimestampInput = z
  .string()
  .refine(
    (s) => {
      if (!RFC_3339.test(s)) return false;
      const ms = Date.parse(s);
      return ms >= FIRST_MS && ms <= LAST_MS;
    },
    { message: TIMESTAMP_MESSAGE },
  )
  .meta({ format: "date-time" })
  .describe(`RFC 3339 timestamp, ${FIRST_DAY}T00:00:00.000Z to ${LAST_DAY}T23:59:59.999Z`);

/** Query-string boolean: only the literal words, so `?active=yes` is an error, not a silent false. */
export const QueryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");

const DIGITS = "must be a whole number written in digits";

/**
 * An integer in a query string (plain decimal digits only: no 0x10, 1e2, +5 or spaces) or, from MCP
 * arguments, a JSON integer; then checked by `bounds` (e.g. `z.number().min(1)`).
 */
export function queryInt(bounds: z.ZodNumber = z.number()) {
  return z.preprocess((value, ctx) => {
    if (typeof value !== "string") return value;
    if (/^\d{1,15}$/.test(value)) return Number(value);
    ctx.addIssue({ code: "custom", message: DIGITS, input: value });
    return z.NEVER;
  }, bounds.int(DIGITS));
}

/** Every id and external id, in paths, bodies and filters: up to 255 characters (longer is 422). */
export const Id = z.string().min(1).max(255);

export const IdParams = z.strictObject({ id: Id });

/** The body of an action that takes no input: empty or `{}`; any field is unknown (422), never ignored. */
export const EmptyBody = z.strictObject({});

export function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

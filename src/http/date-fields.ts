import { z } from "zod";
import "./zod-messages.js";

// Date and timestamp fields of every resource: inputs checked, outputs described; one shape, one definition.

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

/** A timestamp column as the API writes it. */
export function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

/** A column's value as a response carries it: a timestamp as its ISO string, anything else as read. */
export type AsResponse<Value> = Value extends Date ? string : Value;

/**
 * The named columns of a row as a response carries them (timestamps → ISO strings): the row mappers name the
 * fields the API shows, so a column added to the table (a hash, a secret) never reaches a response by itself.
 */
export function responseColumns<Row, Name extends keyof Row>(
  row: Row,
  names: readonly Name[],
): { [Column in Name]: AsResponse<Row[Column]> } {
  const fields = {} as { [Column in Name]: AsResponse<Row[Column]> };
  for (const name of names) {
    const value = row[name];
    fields[name] = (value instanceof Date ? value.toISOString() : value) as AsResponse<Row[Name]>;
  }
  return fields;
}

import { z } from "zod";

/** Field schemas shared by every resource, so one shape has one definition. */
export const Timestamp = z
  .string()
  .meta({ format: "date-time" })
  .describe("RFC 3339 UTC timestamp with milliseconds, e.g. 2026-11-22T10:00:00.000Z");

/** A calendar date in a response (inputs use IsoDate, which checks it). */
export const DateOut = z.string().meta({ format: "date" }).describe("Calendar date YYYY-MM-DD");

export const IsoDate = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "must be a date YYYY-MM-DD")
  .refine(
    (s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)) && new Date(`${s}T00:00:00Z`).toISOString().startsWith(s),
    {
      message: "must be a real calendar date",
    },
  )
  .meta({ format: "date" })
  .describe("Calendar date YYYY-MM-DD");

export const TimestampInput = z
  .string()
  .refine((s) => /^\d{4}-\d{2}-\d{2}T/.test(s) && !Number.isNaN(Date.parse(s)), {
    message: "must be an RFC 3339 timestamp such as 2026-11-22T10:00:00.000Z",
  })
  .meta({ format: "date-time" });

/** Query-string boolean: only the literal words, so `?active=yes` is an error, not a silent false. */
export const QueryBoolean = z.enum(["true", "false"]).transform((v) => v === "true");

export const IdParams = z.strictObject({ id: z.string().min(1).max(100) });

/** The body of an action that takes no input: empty or `{}`; any field is unknown (422), never ignored. */
export const EmptyBody = z.strictObject({});

export function toIso(value: Date | string | null): string | null {
  if (value === null) return null;
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

import { z } from "zod";
import "./zod-messages.js";

// Request fields of every resource: ids, path params, empty action bodies, query-string scalars.

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

/** Marks a query parameter that takes one or several values of an enum, for the OpenAPI document. */
export const ENUM_LIST = "x-cts-enum-list";

/**
 * `a` or `a,b`, or the parameter repeated (`?status=a&status=b`, as generated clients send arrays): each
 * value checked against the enum. The document declares it an array of the enum, comma-separated.
 */
export function commaList<T extends string>(values: readonly T[], what: string) {
  return z
    .union([z.string(), z.array(z.string())])
    .transform((input, ctx) => {
      const items = [input].flat().flatMap((s) => s.split(",").map((v) => v.trim()));
      const bad = items.filter((v) => !(values as readonly string[]).includes(v));
      if (bad.length > 0 || items.length === 0) {
        ctx.addIssue({ code: "custom", message: `must be ${what} (${values.join(", ")}), one or comma-separated` });
        return z.NEVER;
      }
      return [...new Set(items)] as T[];
    })
    .meta({ [ENUM_LIST]: values })
    .describe(`One of ${values.join(", ")}, or several comma-separated.`);
}

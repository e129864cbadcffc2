import * as z from "zod/mini";

// Search parameters as routes.tsx validates them (zod's mini build: the schemas ship in the entry
// chunk). Every parameter is optional and a value that does not parse is dropped, so a bad or old
// link opens the page with its defaults instead of an error; a page writes only what differs from them.

/** Absent, or dropped when it does not parse. */
export const optional = <T extends z.core.SomeType>(schema: T) => z.catch(z.optional(schema), undefined);

/** Text; the router reads `?q=2026` as a number, so numbers come back as their digits. */
export const text = () => optional(z.coerce.string());

/** A whole number from 1 (a page, an HTTP status). */
export const whole = () => optional(z.coerce.number().check(z.int(), z.positive()));

/** A page number (1, 2, …). */
export const page = whole;

/** One of the values listed. */
export const oneOf = <const T extends readonly [string, ...string[]]>(values: T) => optional(z.enum(values));

export const flag = () => optional(z.boolean());

/** Several of the values listed (an unknown value drops the list). */
export const someOf = <const T extends readonly [string, ...string[]]>(values: T) => optional(z.array(z.enum(values)));

export const searchSchema = z.object;
export type SearchOf<T extends z.core.SomeType> = z.output<T>;

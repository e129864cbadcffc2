import * as z from "zod/mini";
import { optional, searchSchema } from "../../lib/search";

const month = () => optional(z.coerce.string().check(z.regex(/^\d{4}-(0[1-9]|1[0-2])$/)));

/** /accounting: the roll-forward's span and the journal's month (each YYYY-MM). */
export const accountingSearch = searchSchema({ from: month(), to: month(), month: month() });

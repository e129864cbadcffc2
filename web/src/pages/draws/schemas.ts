import { oneOf, page, searchSchema, text } from "../../lib/search";

export const DRAW_STATUSES = ["active", "ended"] as const;

/** /draws: GET /draws's filters (the person, currency, status), the page and the draw opened. */
export const drawsSearch = searchSchema({
  user: text(),
  currency: text(),
  status: oneOf(DRAW_STATUSES),
  page: page(),
  draw: text(),
});

import { page, searchSchema, text } from "../../lib/search";

/** /payouts/runs/{id}: whose lines are shown (a payee's user id; none: everyone's) and their page. */
export const payoutRunSearch = searchSchema({ person: text(), page: page() });

import { page, searchSchema, text } from "../../lib/search";

/**
 * /payouts: the page of payout runs, of what is owed, whose deals to pay (a group's rep narrows them) and
 * their page.
 */
export const payoutsSearch = searchSchema({ runs: page(), groups: page(), owner: text(), page: page() });

/** /payouts/runs/{id}: whose lines are shown (a payee's user id; none: everyone's) and their page. */
export const payoutRunSearch = searchSchema({ person: text(), page: page() });

import { page, searchSchema, text } from "../../lib/search";

/** /payouts: the page of what is owed, whose deals to pay (a group's rep narrows them) and their page. */
export const payoutsSearch = searchSchema({ groups: page(), owner: text(), page: page() });

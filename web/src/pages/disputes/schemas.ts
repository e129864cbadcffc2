import { page, searchSchema } from "../../lib/search";

/** /disputes: the page of the person's disputes. */
export const disputesSearch = searchSchema({ page: page() });

import { page, searchSchema } from "../../lib/search";

/** /deals/$dealId: the page of its history. */
export const dealSearch = searchSchema({ history: page() });

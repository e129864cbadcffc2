import { page, searchSchema } from "../../lib/search";

/** /acknowledgements: the page of the person's plan acknowledgements. */
export const acknowledgementsSearch = searchSchema({ page: page() });

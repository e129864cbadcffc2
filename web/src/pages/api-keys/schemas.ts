import { page, searchSchema } from "../../lib/search";

/** /api-keys: the page of keys. */
export const apiKeysSearch = searchSchema({ page: page() });

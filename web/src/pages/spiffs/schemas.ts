import { flag, page, searchSchema } from "../../lib/search";

/** /spiffs: active or inactive only, and the page. */
export const spiffsSearch = searchSchema({ active: flag(), page: page() });

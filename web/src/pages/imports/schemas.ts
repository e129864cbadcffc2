import { oneOf, searchSchema } from "../../lib/search";
import { IMPORT_RESOURCES } from "./fields";

/** /imports: what the file holds (deals unless `?resource=users`). */
export const importsSearch = searchSchema({ resource: oneOf(IMPORT_RESOURCES) });

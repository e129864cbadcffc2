// The CSV imports (API.md §19) as other folders see them: the routes (registered by the app beside the
// text/csv body parser), the two services (the CLI's `cts import` reaches them through the owner
// commands) and the limits the parser enforces.
export { importDeals } from "./import-deals.js";
export { importUsers } from "./import-users.js";
export { IMPORTS_TAG, importRoutes } from "./routes.js";
export { FILE_TOO_LARGE, ImportQuery, ImportResult, MAX_FILE_BYTES } from "./schema.js";

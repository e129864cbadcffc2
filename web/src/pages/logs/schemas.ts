import { page, searchSchema, text, whole } from "../../lib/search";

/** /audit: GET /audit-events's filters and the page. */
export const auditSearch = searchSchema({
  resource: text(),
  resource_id: text(),
  actor: text(),
  since: text(),
  page: page(),
});

/** /request-log: GET /request-logs's filters and the page. */
export const requestLogSearch = searchSchema({
  key_id: text(),
  user_id: text(),
  status: whole(),
  since: text(),
  page: page(),
});

import { oneOf, page, searchSchema, text } from "../../lib/search";

export const ACK_STATUSES = ["pending", "acknowledged"] as const;

/** /plan-acknowledgements: GET /plan-acknowledgements's filters and the page. */
export const planAcknowledgementsSearch = searchSchema({ status: oneOf(ACK_STATUSES), user: text(), page: page() });

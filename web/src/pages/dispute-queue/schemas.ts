import { oneOf, page, searchSchema } from "../../lib/search";

/** /dispute-queue: open or resolved disputes (open when absent), and the page. */
export const disputeQueueSearch = searchSchema({ status: oneOf(["open", "resolved"]), page: page() });

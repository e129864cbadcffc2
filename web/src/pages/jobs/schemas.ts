import { oneOf, page, searchSchema, text } from "../../lib/search";

export const JOB_STATUSES = ["queued", "running", "succeeded", "failed"] as const;

/** /jobs: GET /jobs's filters and the page. */
export const jobsSearch = searchSchema({ status: oneOf(JOB_STATUSES), kind: text(), page: page() });

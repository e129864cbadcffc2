import { page, searchSchema } from "../../lib/search";

/** /webhooks: the page of subscriptions. */
export const webhooksSearch = searchSchema({ page: page() });

/** /webhooks/$subscriptionId: the page of its delivery log. */
export const webhookSearch = searchSchema({ deliveries: page() });

// One key factory per API resource: every query of the console is keyed [resource, "list", params] or
// [resource, "detail", id, ...more], so a write makes a whole resource stale by its root (refresh.ts)
// and a record by its detail prefix. test/console/data-keys.test.ts holds every query to this.

function factory<Root extends string>(root: Root) {
  return {
    all: [root] as const,
    list: (params?: unknown) => [root, "list", params] as const,
    detail: (id: string, ...more: unknown[]) => [root, "detail", id, ...more] as const,
  };
}

export const keys = {
  auth: factory("auth"),
  deals: factory("deals"),
  statements: factory("statements"),
  users: factory("users"),
  compPlans: factory("comp-plans"),
  disputes: factory("disputes"),
  payouts: factory("payouts"),
  payoutRuns: factory("payout-runs"),
  spiffs: factory("spiffs"),
  jobs: factory("jobs"),
  auditEvents: factory("audit-events"),
  requestLogs: factory("request-logs"),
  apiKeys: factory("api-keys"),
  webhooks: factory("webhooks"),
  exchangeRates: factory("exchange-rates"),
  accounting: factory("accounting"),
  draws: factory("draws"),
  planAcknowledgements: factory("plan-acknowledgements"),
};

/** A resource's root ("deals"): what refresh.ts makes stale. */
export type Resource = (typeof keys)[keyof typeof keys]["all"][0];

import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";

export type Dispute = Schemas["Dispute"];

export const disputeKeys = {
  all: ["disputes"] as const,
  list: (page: number) => ["disputes", "list", page] as const,
  ofDeal: (dealId: string) => ["disputes", "deal", dealId] as const,
};

export const DISPUTES_PAGE_SIZE = 25;

export const disputesQuery = (page: number) =>
  queryOptions({
    queryKey: disputeKeys.list(page),
    queryFn: () => unwrap(api.GET("/api/v1/disputes", { params: { query: { page, per_page: DISPUTES_PAGE_SIZE } } })),
  });

export const dealDisputesQuery = (dealId: string) =>
  queryOptions({
    queryKey: disputeKeys.ofDeal(dealId),
    queryFn: () => unwrap(api.GET("/api/v1/disputes", { params: { query: { deal_id: dealId, per_page: 100 } } })),
  });

/** The API's reasons (OpenDisputeBody.reason), in words; `satisfies` fails the build when the enum changes. */
export const DISPUTE_REASON_LABELS = {
  wrong_amount: "Wrong amount",
  wrong_deal_type: "Wrong deal type",
  missing_tier: "Missing tier",
  wrong_attribution: "Wrong attribution",
  spiff_missing: "SPIFF missing",
  other: "Other",
} as const satisfies Record<Dispute["reason"], string>;

import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type Dispute = Schemas["Dispute"];

/** A page of disputes: the person's own, a deal's (deal_id) or the admin's queue (status). */
export const disputesQuery = defineQuery("GET /api/v1/disputes", (query: QueryOf<"listDisputes">) =>
  queryOptions({
    queryKey: keys.disputes.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/disputes", { params: { query } })),
  }),
);

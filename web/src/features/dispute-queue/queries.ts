import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import { disputeKeys } from "../disputes/queries";

export type Dispute = Schemas["Dispute"];
export type QueueStatus = Dispute["status"];

export const QUEUE_PAGE_SIZE = 20;

/** The admin's queue: every dispute of one status, newest first (under disputeKeys.all, so resolving refreshes it). */
export const disputeQueueQuery = (status: QueueStatus, page: number) =>
  queryOptions({
    queryKey: [...disputeKeys.all, "queue", status, page] as const,
    queryFn: () =>
      unwrap(api.GET("/api/v1/disputes", { params: { query: { status: [status], page, per_page: QUEUE_PAGE_SIZE } } })),
  });

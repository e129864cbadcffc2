import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type RequestLog = Schemas["RequestLog"];

/** GET /request-logs with the page's filters (key_id, user_id, status, since), newest first. */
export const requestLogsQuery = defineQuery("GET /api/v1/request-logs", (query: QueryOf<"listRequestLogs">) =>
  queryOptions({
    queryKey: keys.requestLogs.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/request-logs", { params: { query } })),
  }),
);

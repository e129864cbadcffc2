import { queryOptions } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { QueryOf, Schemas } from "../../api/types";
import { keys } from "../keys";
import { defineQuery } from "../query";

export type AuditEvent = Schemas["AuditEvent"];

/** GET /audit-events with the page's filters (resource, resource_id, actor, since), newest first. */
export const auditEventsQuery = defineQuery("GET /api/v1/audit-events", (query: QueryOf<"listAuditEvents">) =>
  queryOptions({
    queryKey: keys.auditEvents.list(query),
    queryFn: () => unwrap(api.GET("/api/v1/audit-events", { params: { query } })),
  }),
);

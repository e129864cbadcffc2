import { queryOptions } from "@tanstack/react-query";
import { api, type Schemas, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";

export type AuditEvent = Schemas["AuditEvent"];
export type RequestLog = Schemas["RequestLog"];
export type AuditFilter = Omit<NonNullable<operations["listAuditEvents"]["parameters"]["query"]>, "per_page">;
export type RequestLogFilter = Omit<NonNullable<operations["listRequestLogs"]["parameters"]["query"]>, "per_page">;

export const LOG_PAGE_SIZE = 50;

export const logKeys = {
  audit: (filter: AuditFilter) => ["audit-events", filter] as const,
  requests: (filter: RequestLogFilter) => ["request-logs", filter] as const,
};

/** GET /audit-events with the page's filters (resource, resource_id, actor, since), newest first. */
export const auditQuery = (filter: AuditFilter) =>
  queryOptions({
    queryKey: logKeys.audit(filter),
    queryFn: () =>
      unwrap(api.GET("/api/v1/audit-events", { params: { query: { ...filter, per_page: LOG_PAGE_SIZE } } })),
  });

/** GET /request-logs with the page's filters (key_id, user_id, status, since), newest first. */
export const requestLogQuery = (filter: RequestLogFilter) =>
  queryOptions({
    queryKey: logKeys.requests(filter),
    queryFn: () =>
      unwrap(api.GET("/api/v1/request-logs", { params: { query: { ...filter, per_page: LOG_PAGE_SIZE } } })),
  });

/** The resources the service audits, offered as suggestions (any other value may be typed). */
export const AUDITED_RESOURCES = [
  "deal",
  "commission",
  "dispute",
  "comp_plan",
  "plan_assignment",
  "spiff",
  "user",
  "api_key",
  "webhook_subscription",
  "webhook_delivery",
];

/** A `datetime-local` value ("2026-11-26T09:30", the browser's zone) as the RFC 3339 UTC the API takes. */
export function sinceParam(local: string): string | undefined {
  if (!local) return undefined;
  const at = new Date(local);
  return Number.isNaN(at.getTime()) ? undefined : at.toISOString();
}

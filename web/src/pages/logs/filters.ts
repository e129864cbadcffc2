export const LOG_PAGE_SIZE = 50;

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

/** The RFC 3339 time a filter holds, as the `datetime-local` field shows it (the browser's zone). */
export function localOf(since: string | undefined): string {
  if (!since) return "";
  const at = new Date(since);
  if (Number.isNaN(at.getTime())) return "";
  const pad = (n: number) => String(n).padStart(2, "0");
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}T${pad(at.getHours())}:${pad(at.getMinutes())}`;
}

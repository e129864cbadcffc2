import { currentPeriodLabel } from "./lib/periods";
import type { SessionUser } from "./session";

export type Role = SessionUser["role"];

export interface NavEntry {
  /** The path, or how to make it when it depends on today (the current period's statement). */
  to: string | (() => string);
  label: string;
  /** Who sees the entry and may open its pages; everyone else gets the "not allowed" page there. */
  roles: readonly Role[];
  /** The path prefix that marks the entry active: `to` itself when absent. */
  match?: string;
  section: "pay" | "cycle" | "setup" | "system" | "settings";
}

const EVERYONE: readonly Role[] = ["rep", "manager", "finance", "admin"];
/** The roles whose pages read everyone's records (a finance user reads as a read key does, API.md §11). */
export const READS_ALL: readonly Role[] = ["finance", "admin"];
export const ADMINS: readonly Role[] = ["admin"];

/**
 * The console's pages by role: the navigation shows a person only what their role may open, and
 * `rolePage` in router.tsx refuses the rest with the "not allowed" page (the API refuses them anyway).
 * A page that reads with the API's `MAY.*` roles names the same roles here.
 */
export const NAV: readonly NavEntry[] = [
  { to: "/", label: "Home", roles: EVERYONE, section: "pay" },
  {
    to: () => `/statements/${currentPeriodLabel("quarter")}`,
    label: "Statement",
    roles: EVERYONE,
    match: "/statements",
    section: "pay",
  },
  { to: "/what-if", label: "What-if", roles: EVERYONE, section: "pay" },
  { to: "/disputes", label: "My disputes", roles: EVERYONE, section: "pay" },
  { to: "/team", label: "Team", roles: ["manager", "finance", "admin"], section: "pay" },
  { to: "/approvals", label: "Approvals", roles: ADMINS, section: "cycle" },
  { to: "/dispute-queue", label: "Dispute queue", roles: ADMINS, section: "cycle" },
  { to: "/payouts", label: "Payouts", roles: READS_ALL, section: "cycle" },
  // Finance reads plans and may preview a change's impact (MAY.previewPlanChange); only admins change them.
  { to: "/plans", label: "Plans", roles: READS_ALL, section: "setup" },
  { to: "/spiffs", label: "SPIFFs", roles: READS_ALL, section: "setup" },
  { to: "/people", label: "People", roles: READS_ALL, section: "setup" },
  { to: "/api-keys", label: "API keys", roles: ADMINS, section: "system" },
  { to: "/webhooks", label: "Webhooks", roles: ADMINS, section: "system" },
  { to: "/audit", label: "Audit log", roles: ADMINS, section: "system" },
  { to: "/request-log", label: "Request log", roles: ADMINS, section: "system" },
  { to: "/jobs", label: "Jobs", roles: ADMINS, section: "system" },
  { to: "/account", label: "Account", roles: EVERYONE, section: "settings" },
];

export const SECTION_LABELS: Record<NavEntry["section"], string> = {
  pay: "Pay",
  cycle: "Monthly cycle",
  setup: "Plans and people",
  system: "Integrations and logs",
  settings: "Settings",
};

export function navFor(role: Role): NavEntry[] {
  return NAV.filter((entry) => entry.roles.includes(role));
}

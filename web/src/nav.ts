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
  section: "pay" | "workbench" | "settings";
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
  { to: "/approvals", label: "Approvals", roles: ADMINS, section: "workbench" },
  { to: "/account", label: "Account", roles: EVERYONE, section: "settings" },
];

export const SECTION_LABELS: Record<NavEntry["section"], string> = {
  pay: "Pay",
  workbench: "Workbench",
  settings: "Settings",
};

export function navFor(role: Role): NavEntry[] {
  return NAV.filter((entry) => entry.roles.includes(role));
}

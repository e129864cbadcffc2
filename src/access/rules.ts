import { type Role, rolesOfScope } from "../context.js";
import { ROLES } from "../enums.js";

/**
 * Who may do what (API.md §11 "may do"): the scopes' defaults — read → every role, write and admin →
 * admins — and the actions open beyond them. Routes declare these and services check the same ones.
 */
export const MAY = {
  read: rolesOfScope("read"),
  write: rolesOfScope("write"),
  admin: rolesOfScope("admin"),
  /** Admin-only reads: webhooks, keys, audit, request logs, jobs. */
  adminRead: ["admin"],
  /** Finance records payments and adjustments. */
  markPaid: ["admin", "finance"],
  adjust: ["admin", "finance"],
  /** GET /payouts, what is approved and still to pay: the people who pay it. */
  readPayouts: ["admin", "finance"],
  /** PATCH /users/{id}: admins; finance only a person's payroll_id (API.md §13). */
  updateUser: ["admin", "finance"],
  /** Payout runs (API.md §13): create, finalize, cancel (keys: admin), read and export (keys: read). */
  payoutRuns: ["admin", "finance"],
  /** Draws (API.md §18): create, end, forgive (keys: admin); reads follow §11 (a rep their own). */
  draws: ["admin", "finance"],
  /** Commission-cost accounting (API.md §17): the settings and reports (keys: read; writes admin). */
  accounting: ["admin", "finance"],
  /** A plan change's impact (API.md §12): admins, and finance who pays its corrections. */
  previewPlanChange: ["admin", "finance"],
  /** GET /jobs/{id}: admins; finance only the `plan_impact` jobs a large preview answers with (service). */
  readJob: ["admin", "finance"],
  /** What a cancel or refund would claw back (API.md §14): admins, and finance who recovers it. */
  previewClawbacks: ["admin", "finance"],
  /** Whoever reads may price a deal body. */
  preview: ROLES,
  /** Reps and managers dispute their own approved deals (the service checks whose), admins any. */
  openDispute: ["admin", "rep", "manager"],
} as const satisfies Record<string, readonly Role[]>;

import { z } from "zod";
import { requires } from "../access/index.js";
import { ROLES } from "../enums.js";
import { MoneyOut } from "../http/commission-fields.js";
import { DateOut, IsoDate, Timestamp } from "../http/date-fields.js";
import { Id, QueryBoolean } from "../http/input-fields.js";
import { PageQuery } from "../http/pagination.js";

export const Role = z.enum(ROLES);

export const User = z
  .object({
    id: z.string().describe("usr_…"),
    external_id: z.string().nullable().describe("Your system's id for this person (unique)."),
    name: z.string(),
    email: z.string().describe("Unique, compared case-insensitively."),
    role: Role,
    manager_id: z.string().nullable(),
    active: z.boolean(),
    payroll_id: z
      .string()
      .nullable()
      .describe("The person's id in the payroll system (ADP's File #, Gusto's employee id); unique."),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: "User" });
export type User = z.infer<typeof User>;

const writable = {
  external_id: z.string().trim().min(1).max(255).nullable(),
  name: z.string().trim().min(1).max(200),
  email: z
    .email({ error: (issue) => (issue.input === undefined ? "is required" : "must be a valid email address") })
    .max(320),
  role: Role,
  manager_id: Id.nullable(),
  active: z.boolean(),
  payroll_id: z.string().trim().min(1).max(64).nullable(),
};

/** API.md §16: from when a new manager_id counts. */
const ManagerEffectiveFrom = IsoDate.describe(
  "From when manager_id counts (API.md §16), YYYY-MM-DD: default today (UTC); today or earlier, and not before the current reporting line starts (on its start it replaces that line). Only with manager_id.",
);

/**
 * Who may hand out access (API.md §20 (a)): a write key creates reps and managers and edits names, but
 * only admins make an admin or finance user, change a role or `active`, or change the email of an admin
 * or finance user (the email is what an OIDC sign-in or a password reset is bound to).
 */
const PRIVILEGED_ROLES = ["admin", "finance"] as const;

export const CreateUserBody = z.strictObject({
  ...writable,
  external_id: writable.external_id.optional(),
  role: requires(writable.role.default("rep"), "admin", { values: PRIVILEGED_ROLES }),
  manager_id: writable.manager_id.optional(),
  manager_effective_from: ManagerEffectiveFrom.optional(),
  payroll_id: writable.payroll_id.optional(),
  active: requires(writable.active.default(true), "admin", { values: [false] }),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z
  .strictObject({
    ...writable,
    role: requires(writable.role, "admin"),
    active: requires(writable.active, "admin"),
    email: requires(writable.email, "admin", { record: { role: PRIVILEGED_ROLES } }),
    manager_effective_from: ManagerEffectiveFrom,
  })
  .partial();
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

/** API.md §16: one span of who a user reported to. */
export const ReportingLine = z
  .object({
    manager_id: z.string().nullable().describe("usr_…; null: a span with no manager."),
    effective_from: DateOut,
    effective_to: DateOut.nullable().describe("Inclusive; null: the open line, today's manager."),
  })
  .meta({ id: "ReportingLine" });
export type ReportingLine = z.infer<typeof ReportingLine>;
/** A span with the user it belongs to (reads across users). */
export type UserReportingLine = ReportingLine & { user_id: string };

export const ReportingLines = z
  .object({ data: z.array(ReportingLine).describe("Oldest first; empty: never had a manager.") })
  .meta({ id: "ReportingLines" });
export type ReportingLines = z.infer<typeof ReportingLines>;

export const ReplaceReportingLinesBody = z.strictObject({
  lines: z
    .array(
      z.strictObject({
        manager_id: Id.nullable().describe("usr_…; null: no manager from this date."),
        effective_from: IsoDate.describe("Unique within the list; today or earlier."),
      }),
    )
    .max(1000)
    .describe(
      "The whole history in any order: sorted by date, each line ends the day before the next starts, the last stays open. Empty: no manager ever.",
    ),
});
export type ReplaceReportingLinesBody = z.infer<typeof ReplaceReportingLinesBody>;

/**
 * POST /users/{id}/reporting-lines/impact: either a PATCH's manager change (`manager_id`, with
 * `manager_effective_from`) or a PUT's whole history (`lines`) — one of the two (the service says so).
 */
export const ReportingChangeBody = z
  .strictObject({
    manager_id: Id.nullable().optional().describe("usr_…; null: no manager from `manager_effective_from`."),
    manager_effective_from: ManagerEffectiveFrom.optional(),
    lines: ReplaceReportingLinesBody.shape.lines.optional(),
  })
  .meta({ id: "ReportingChange" });
export type ReportingChangeBody = z.infer<typeof ReportingChangeBody>;

export const ListUsersQuery = PageQuery.extend({
  role: Role.optional(),
  active: QueryBoolean.optional(),
  manager_id: z.string().optional(),
  email: z.string().optional().describe("Exact match, case-insensitive."),
  q: z.string().min(1).max(200).optional().describe("name or email contains this, case-insensitive."),
}).strict();
export type ListUsersQuery = z.infer<typeof ListUsersQuery>;

export const RevokedSessions = z
  .object({ revoked: z.number().int().min(0).describe("How many open sessions were ended.") })
  .meta({ id: "RevokedSessions" });

/** GET /users/{id}/payout-balances (API.md §13): what the person owes back, per currency. */
export const PayoutBalance = z
  .object({
    currency: z.string(),
    deficit: MoneyOut.describe("What later runs will recover: the latest deficit_carried_forward."),
    draws: z
      .array(z.object({ draw_id: z.string(), balance: MoneyOut }))
      .describe(
        "Each recoverable draw with a balance (API.md §18: advances − recoveries − forgiveness, draft runs included), oldest first.",
      ),
  })
  .meta({ id: "PayoutBalance" });
export type PayoutBalance = z.infer<typeof PayoutBalance>;

export const PayoutBalances = z.array(PayoutBalance);

import { z } from "zod";
import { ROLES } from "../enums.js";
import { Timestamp } from "../http/date-fields.js";
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
};

export const CreateUserBody = z.strictObject({
  ...writable,
  external_id: writable.external_id.optional(),
  role: writable.role.default("rep"),
  manager_id: writable.manager_id.optional(),
  active: writable.active.default(true),
});
export type CreateUserBody = z.infer<typeof CreateUserBody>;

export const UpdateUserBody = z.strictObject(writable).partial();
export type UpdateUserBody = z.infer<typeof UpdateUserBody>;

export const ListUsersQuery = PageQuery.extend({
  role: Role.optional(),
  active: QueryBoolean.optional(),
  manager_id: z.string().optional(),
  email: z.string().optional().describe("Exact match, case-insensitive."),
}).strict();
export type ListUsersQuery = z.infer<typeof ListUsersQuery>;

export const RevokedSessions = z
  .object({ revoked: z.number().int().min(0).describe("How many open sessions were ended.") })
  .meta({ id: "RevokedSessions" });

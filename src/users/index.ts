// The users feature as other folders see it: its routes, services and schemas.

export { createUser } from "./create.js";
export {
  credentialsByEmail,
  emailOfUser,
  lockUserWithPassword,
  setPasswordHash,
  type UserWithPassword,
} from "./credentials.js";
export { existingUserIds, lockExistingUsers } from "./existing.js";
export { FIRST_ADMIN_COMMAND, FIRST_ADMIN_NPM_COMMAND, hasActiveAdmin } from "./first-admin.js";
export { listUsers } from "./list.js";
export { managerLinks, usersNamed } from "./lookup.js";
export { userNames } from "./names.js";
export { getUser } from "./read.js";
export {
  type ReportingChange,
  type ReportingChangeHandler,
  reportingChanged,
  setReportingChangeHandler,
} from "./reporting-port.js";
export { userRoutes } from "./routes.js";
export { CreateUserBody, ListUsersQuery, UpdateUserBody, User } from "./schema.js";
export { updateUser } from "./update.js";

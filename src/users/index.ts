// The users feature as other folders see it: its routes, services and schemas.

export { createUser, createUserRecalculating } from "./create.js";
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
export { listReportingLines } from "./list-reporting-lines.js";
export {
  everReportedTo,
  managerLinks,
  openReportingLineStarts,
  reportingLinesBetween,
  reportingLinesOf,
  usersNamed,
} from "./lookup.js";
export { userNames } from "./names.js";
export { type ProposedReporting, proposeReportingLines } from "./propose-reporting-lines.js";
export { getUser } from "./read.js";
export { replaceReportingLines } from "./replace-reporting-lines.js";
export {
  type ReportingChange,
  type ReportingChangeHandler,
  reportingChanged,
  setReportingChangeHandler,
} from "./reporting-port.js";
export { userRoutes } from "./routes.js";
export {
  CreateUserBody,
  ListUsersQuery,
  ReplaceReportingLinesBody,
  ReportingChangeBody,
  ReportingLine,
  ReportingLines,
  UpdateUserBody,
  User,
  type UserReportingLine,
} from "./schema.js";
export { updateUser, updateUserRecalculating } from "./update.js";

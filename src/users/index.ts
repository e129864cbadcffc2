// The users feature as other folders see it: its routes, services and schemas.

export {
  credentialsByEmail,
  emailOfUser,
  lockUserWithPassword,
  setPasswordHash,
  type UserWithPassword,
} from "./credentials.js";
export { userNames } from "./names.js";
export { userRoutes } from "./routes.js";
export { CreateUserBody, ListUsersQuery, UpdateUserBody, User } from "./schema.js";
export { createUser, existingUserIds, getUser, listUsers, lockExistingUsers, updateUser } from "./service.js";

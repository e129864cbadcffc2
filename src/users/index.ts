// The users feature as other folders see it: its routes, services and schemas.
export { userRoutes } from "./routes.js";
export { CreateUserBody, ListUsersQuery, UpdateUserBody, User } from "./schema.js";
export { createUser, getUser, listUsers, updateUser } from "./service.js";

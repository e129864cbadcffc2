import { declareRoutes } from "../declare-routes.js";
import type { App } from "../http/types.js";
import { CreateUserBody, ListUsersQuery, UpdateUserBody, User } from "./schema.js";
import * as service from "./service.js";

export function userRoutes(app: App): void {
  const route = declareRoutes(app, ["Users"]);
  route.list(
    { path: "/users", scope: "read", summary: "List users", query: ListUsersQuery, item: User },
    ({ ctx, query }) => service.listUsers(ctx, query),
  );
  route.getById({ path: "/users/:id", scope: "read", summary: "Get a user", response: User }, service.getUser);

  route.create(
    {
      path: "/users",
      scope: "write",
      summary: "Create a user",
      description: "`role` defaults to rep, `active` to true. Email and external_id are unique (409).",
      body: CreateUserBody,
      response: User,
    },
    ({ ctx, body }) => service.createUser(ctx, body),
  );

  route.patchById(
    {
      path: "/users/:id",
      scope: "write",
      ifMatch: { read: service.getUser, schema: User },
      summary: "Update a user",
      description:
        "Merges: omitted fields stay, null clears a nullable field. Deactivate with active: false (there is no DELETE).",
      body: UpdateUserBody,
      response: User,
    },
    service.updateUser,
  );
}

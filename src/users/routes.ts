import { declareRoutes } from "../declare-routes.js";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { CreateUserBody, ListUsersQuery, RevokedSessions, UpdateUserBody, User } from "./schema.js";
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
        "Merges: omitted fields stay, null clears a nullable field. Deactivate with active: false (there is no DELETE). Deactivating a user or changing their role ends their signed-in sessions (on their next request).",
      body: UpdateUserBody,
      response: User,
    },
    service.updateUser,
  );

  route.post(
    {
      path: "/users/:id/sessions/revoke",
      scope: "admin",
      summary: "Revoke a user's sessions",
      operationId: "revokeUserSessions",
      description:
        "Signs the person out everywhere: every open session ends, effective on its next request in every process. 200 with how many were open (0 is not an error); audited as session.revoke. Deactivating a user (active: false) or changing their role does the same.",
      params: IdParams,
      body: EmptyBody,
      response: RevokedSessions,
    },
    ({ ctx, params }) => service.revokeSessions(ctx, params.id),
  );
}

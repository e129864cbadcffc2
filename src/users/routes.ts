import { MAY } from "../access/index.js";
import { declareRoutes } from "../declare-routes.js";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { createUser } from "./create.js";
import { listUsers } from "./list.js";
import { payoutBalances } from "./payout-balances.js";
import { getUser } from "./read.js";
import { revokeSessions } from "./revoke-sessions.js";
import { CreateUserBody, ListUsersQuery, PayoutBalances, RevokedSessions, UpdateUserBody, User } from "./schema.js";
import { updateUser } from "./update.js";

export function userRoutes(app: App): void {
  const route = declareRoutes(app, ["Users"]);
  const users = route.records({
    path: "/users",
    scope: { read: "read", write: "write" },
    record: User,
    read: getUser,
  });
  users.list({ summary: "List users", query: ListUsersQuery }, ({ ctx, query }) => listUsers(ctx, query));
  users.get({ summary: "Get a user" });

  users.create(
    {
      summary: "Create a user",
      description:
        "`role` defaults to rep, `active` to true. Email and external_id are unique (409). A write key creates reps and managers; an admin or finance user, or an inactive one, needs admin (403 naming it; fields marked `x-requires`), checked once the body is valid.",
      body: CreateUserBody,
    },
    ({ ctx, body }) => createUser(ctx, body),
  );

  users.update(
    {
      summary: "Update a user",
      roles: MAY.updateUser,
      description:
        "Merges: omitted fields stay, null clears a nullable field. Deactivate with active: false (there is no DELETE). Deactivating a user or changing their role ends their signed-in sessions (on their next request). Changing `role` or `active`, or the `email` of an admin or finance user, needs admin (403 naming it; fields marked `x-requires`); sending a field's current value is not a change. People: admins; finance may change only `payroll_id` (unique, 409).",
      body: UpdateUserBody,
    },
    updateUser,
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
    ({ ctx, params }) => revokeSessions(ctx, params.id),
  );

  route.get(
    {
      path: "/users/:id/payout-balances",
      scope: "read",
      summary: "Get a user's payout balances",
      operationId: "getUserPayoutBalances",
      description:
        "Per currency the person was paid in by a finalized payout run: the deficit later runs will recover (the " +
        "latest deficit_carried_forward) and open draws (API.md §18; empty until draws exist). Finance, admins and " +
        "keys read anyone's; a rep or manager only their own (anyone else's: 404).",
      params: IdParams,
      response: PayoutBalances,
    },
    ({ ctx, params }) => payoutBalances(ctx, params.id),
  );
}

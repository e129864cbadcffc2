import { MAY } from "../access/index.js";
import { declareRoutes, Recalculating } from "../declare-routes.js";
import { EmptyBody, IdParams } from "../http/input-fields.js";
import type { App } from "../http/types.js";
import { createUserRecalculating } from "./create.js";
import { listUsers } from "./list.js";
import { listReportingLines } from "./list-reporting-lines.js";
import { payoutBalances } from "./payout-balances.js";
import { getUser } from "./read.js";
import { replaceReportingLines } from "./replace-reporting-lines.js";
import { revokeSessions } from "./revoke-sessions.js";
import {
  CreateUserBody,
  ListUsersQuery,
  PayoutBalances,
  ReplaceReportingLinesBody,
  ReportingLines,
  RevokedSessions,
  UpdateUserBody,
  User,
} from "./schema.js";
import { updateUserRecalculating } from "./update.js";

/** A user write's answer: the `Recalculation-Job-Id` header when its reporting change left override lines to a job. */
const answered = ({ user, recalculationJobId }: { user: User; recalculationJobId: string | null }) =>
  new Recalculating(user, recalculationJobId);

const REPORTING =
  "`manager_id` with `manager_effective_from` (YYYY-MM-DD, default today UTC; today or earlier; not before the open reporting line starts, and on its start it replaces it) ends the open reporting line the day before and opens one (null: no manager; API.md §16); `manager_effective_from` alone → 422. `Recalculation-Job-Id: job_…` when the change left override lines to a background recalculation.";

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
        "`role` defaults to rep, `active` to true. Email and external_id are unique (409). A write key creates reps and managers; an admin or finance user, or an inactive one, needs admin (403 naming it; fields marked `x-requires`), checked once the body is valid. A manager's first reporting line starts at `manager_effective_from` (default today; today or earlier).",
      body: CreateUserBody,
    },
    async ({ ctx, body }) => answered(await createUserRecalculating(ctx, body)),
  );

  users.update(
    {
      summary: "Update a user",
      roles: MAY.updateUser,
      description:
        "Merges: omitted fields stay, null clears a nullable field. Deactivate with active: false (there is no DELETE). Deactivating a user or changing their role ends their signed-in sessions (on their next request). Changing `role` or `active`, or the `email` of an admin or finance user, needs admin (403 naming it; fields marked `x-requires`); sending a field's current value is not a change. People: admins; finance may change only `payroll_id` (unique, 409). " +
        REPORTING,
      body: UpdateUserBody,
    },
    async (ctx, id, body) => answered(await updateUserRecalculating(ctx, id, body)),
  );

  route.get(
    {
      path: "/users/:id/reporting-lines",
      scope: "read",
      summary: "List a user's reporting lines",
      operationId: "listReportingLines",
      description:
        "Who the user reported to over time (API.md §16), oldest first: `effective_to` inclusive, null on the open line (today's manager, the user's `manager_id`); `manager_id` null is a span with no manager. Whoever may read the user (GET /users/{id}) reads it; anyone else gets 404.",
      params: IdParams,
      response: ReportingLines,
    },
    ({ ctx, params }) => listReportingLines(ctx, params.id),
  );

  route.put(
    {
      path: "/users/:id/reporting-lines",
      scope: "admin",
      summary: "Replace a user's reporting lines",
      operationId: "replaceReportingLines",
      ifMatch: { read: listReportingLines, schema: ReportingLines },
      description:
        "Rewrites the whole history (API.md §16): the lines sorted by date, each ending the day before the next starts, the last open; dates unique and today or earlier; an empty list means no manager ever. Each manager must exist, not be the user and form no cycle on any date of its line (everyone's history counts) — else 422 naming `lines[i].manager_id`. The user's `manager_id` becomes the last line's. Answers the new history; `Recalculation-Job-Id: job_…` when override lines were left to a background recalculation. People: admins; keys: admin scope.",
      params: IdParams,
      body: ReplaceReportingLinesBody,
      response: ReportingLines,
    },
    async ({ ctx, params, body }) => {
      const { lines, recalculationJobId } = await replaceReportingLines(ctx, params.id, body);
      return new Recalculating(lines, recalculationJobId);
    },
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

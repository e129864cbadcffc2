import { api, unwrap } from "../../api/client";
import type { BodyOf, Schemas } from "../../api/types";
import { useWrite } from "../write";

export type CreateUserBody = BodyOf<"createUser">;
export type UpdateUserBody = BodyOf<"updateUser">;
export type ReportingChangeBody = BodyOf<"previewReportingChange">;
export type ReportingImpact = Schemas["ReportingImpact"];

/** How many changed lines a manager change's preview lists: the largest, as the API orders them. */
export const MOVE_IMPACT_LINES = 10;

export function useCreateUser() {
  return useWrite("POST /api/v1/users", (body: CreateUserBody) => unwrap(api.POST("/api/v1/users", { body })));
}

/** PATCH /users/{id}: role, manager, active. A role change or deactivation also ends their sessions. */
export function useUpdateUser() {
  return useWrite("PATCH /api/v1/users/{id}", ({ id, body }: { id: string; body: UpdateUserBody }) =>
    unwrap(api.PATCH("/api/v1/users/{id}", { params: { path: { id } }, body })),
  );
}

/**
 * POST /users/{id}/reporting-lines/impact with the body the PATCH would send (API.md §16): what a
 * manager change does to override lines, nothing written. Each call carries the signal that cancels it
 * once a newer body is asked for, so a slow answer never replaces a newer one.
 */
export function usePreviewReportingChange() {
  return useWrite(
    "POST /api/v1/users/{id}/reporting-lines/impact",
    ({ id, body, signal }: { id: string; body: ReportingChangeBody; signal: AbortSignal }) =>
      unwrap(
        api.POST("/api/v1/users/{id}/reporting-lines/impact", {
          params: { path: { id }, query: { per_page: MOVE_IMPACT_LINES } },
          body,
          signal,
        }),
      ),
  );
}

/** POST /users/{id}/sessions/revoke: changes no user record. */
export function useRevokeSessions() {
  return useWrite("POST /api/v1/users/{id}/sessions/revoke", (id: string) =>
    unwrap(api.POST("/api/v1/users/{id}/sessions/revoke", { params: { path: { id } } })),
  );
}

/**
 * POST /users/{id}/invitations. Deliberately not a mutation hook: its answer holds the one-time link,
 * which the invite dialog keeps in its own state only, so no cache (query or mutation) ever holds it.
 */
export function createInvitation(id: string) {
  return unwrap(api.POST("/api/v1/users/{id}/invitations", { params: { path: { id } } }));
}

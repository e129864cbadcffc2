import { useMutation, useQueryClient } from "@tanstack/react-query";
import { api, unwrap } from "../../api/client";
import type { operations } from "../../api/schema";
import { homeKeys } from "../home/queries";
import { peopleKeys } from "./queries";

export type CreateUserBody = operations["createUser"]["requestBody"]["content"]["application/json"];
export type UpdateUserBody = NonNullable<operations["updateUser"]["requestBody"]>["content"]["application/json"];

/** Every user list, the team page and each person's home read users: all are read again after a write. */
function useInvalidatePeople() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: peopleKeys.all }),
      queryClient.invalidateQueries({ queryKey: homeKeys.all }),
    ]);
}

export function useCreateUser() {
  const invalidate = useInvalidatePeople();
  return useMutation({
    mutationFn: (body: CreateUserBody) => unwrap(api.POST("/api/v1/users", { body })),
    onSuccess: invalidate,
  });
}

/** PATCH /users/{id}: role, manager, active. A role change or deactivation also ends their sessions. */
export function useUpdateUser() {
  const invalidate = useInvalidatePeople();
  return useMutation({
    mutationFn: ({ id, body }: { id: string; body: UpdateUserBody }) =>
      unwrap(api.PATCH("/api/v1/users/{id}", { params: { path: { id } }, body })),
    onSuccess: invalidate,
  });
}

/** POST /users/{id}/sessions/revoke: changes no user record, so nothing to read again. */
export function useRevokeSessions() {
  return useMutation({
    mutationFn: (id: string) => unwrap(api.POST("/api/v1/users/{id}/sessions/revoke", { params: { path: { id } } })),
  });
}

/**
 * POST /users/{id}/invitations. Deliberately not a mutation hook: its answer holds the one-time link,
 * which the invite dialog keeps in its own state only, so no cache (query or mutation) ever holds it.
 */
export function createInvitation(id: string) {
  return unwrap(api.POST("/api/v1/users/{id}/invitations", { params: { path: { id } } }));
}

import { useQueryClient } from "@tanstack/react-query";
import { api, setCsrfToken, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { rememberViewer } from "../../lib/remembered";
import { useWrite } from "../write";
import { type Session, sessionQuery } from "./queries";

/**
 * After a sign-in or an accepted invitation the cache starts from nothing (refresh.ts: what an ended
 * session left may be another person's), then holds the new session, so the next page needs no round.
 */
function useStartSession() {
  const client = useQueryClient();
  return (session: Session) => {
    setCsrfToken(session.csrf_token);
    client.setQueryData(sessionQuery().queryKey, session);
  };
}

export function useSignIn() {
  const start = useStartSession();
  return useWrite(
    "POST /api/v1/auth/login",
    (body: BodyOf<"logIn">) => unwrap(api.POST("/api/v1/auth/login", { body })),
    { afterwards: start },
  );
}

export function useAcceptInvitation() {
  const start = useStartSession();
  return useWrite(
    "POST /api/v1/auth/invitations/accept",
    (body: BodyOf<"acceptInvitation">) => unwrap(api.POST("/api/v1/auth/invitations/accept", { body })),
    { afterwards: start },
  );
}

export function useSignOut() {
  return useWrite("POST /api/v1/auth/logout", async () => {
    await unwrap(api.POST("/api/v1/auth/logout"));
    setCsrfToken(undefined);
    rememberViewer(undefined);
  });
}

/** API.md §11: a wrong current password is 403; a weak new one 422 naming `new_password`. */
export function useChangePassword() {
  return useWrite("POST /api/v1/auth/password", (body: BodyOf<"changePassword">) =>
    unwrap(api.POST("/api/v1/auth/password", { body })),
  );
}

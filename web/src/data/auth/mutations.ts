import { useQueryClient } from "@tanstack/react-query";
import { api, setCsrfToken, unwrap } from "../../api/client";
import type { BodyOf } from "../../api/types";
import { rememberViewer } from "../../lib/remembered";
import { useWrite } from "../write";
import { type NotificationSettings, notificationsQuery, type Session, sessionQuery } from "./queries";

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

/** docs/notifications.md §4: always 202 with one message, whether an account uses the email or not. */
export function useRequestPasswordReset() {
  return useWrite("POST /api/v1/auth/password-reset", (body: BodyOf<"requestPasswordReset">) =>
    unwrap(api.POST("/api/v1/auth/password-reset", { body })),
  );
}

/** A reset link's token and the new password: signed in, as with an accepted invitation. */
export function useConfirmPasswordReset() {
  const start = useStartSession();
  return useWrite(
    "POST /api/v1/auth/password-reset/confirm",
    (body: BodyOf<"confirmPasswordReset">) => unwrap(api.POST("/api/v1/auth/password-reset/confirm", { body })),
    { afterwards: start },
  );
}

/** The answer is the settings as saved: the page shows it without asking again. */
export function useSaveNotifications() {
  const client = useQueryClient();
  return useWrite(
    "POST /api/v1/me/notifications",
    (body: BodyOf<"updateMyNotifications">) => unwrap(api.POST("/api/v1/me/notifications", { body })),
    { afterwards: (saved: NotificationSettings) => client.setQueryData(notificationsQuery().queryKey, saved) },
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

import { queryOptions } from "@tanstack/react-query";
import { api, setCsrfToken, unwrap } from "../../api/client";
import { ApiError } from "../../api/errors";
import type { Schemas } from "../../api/types";
import { rememberViewer } from "../../lib/remembered";
import { keys } from "../keys";
import { defineQuery } from "../query";

export { onSessionLost } from "../../api/client";

export type Session = Schemas["Session"];
export type SessionUser = Schemas["User"];
export type Role = SessionUser["role"];

/** The signed-in person, or null when there is no session (401). */
export const sessionQuery = defineQuery("GET /api/v1/auth/session", () =>
  queryOptions({
    queryKey: keys.auth.detail("session"),
    queryFn: async (): Promise<Session | null> => {
      try {
        const session = await unwrap(api.GET("/api/v1/auth/session"));
        setCsrfToken(session.csrf_token);
        rememberViewer(session.user);
        return session;
      } catch (err) {
        if (err instanceof ApiError && err.status === 401) {
          setCsrfToken(undefined);
          rememberViewer(undefined);
          return null;
        }
        throw err;
      }
    },
    staleTime: 60_000,
  }),
);

/**
 * Which ways to sign in this service offers (SSO only when OpenID Connect is configured), and whether it
 * still needs its first admin: that changes while the page is open, so it is asked again on every visit.
 */
export const authMethodsQuery = defineQuery("GET /api/v1/auth/methods", () =>
  queryOptions({
    queryKey: keys.auth.detail("methods"),
    queryFn: () => unwrap(api.GET("/api/v1/auth/methods")),
    staleTime: 0,
  }),
);

export type NotificationSettings = Schemas["NotificationSettings"];
export type NotificationKind = Schemas["NotificationKind"];

/** The signed-in person's message kinds, each on or off (docs/notifications.md §4; a session's only). */
export const notificationsQuery = defineQuery("GET /api/v1/me/notifications", () =>
  queryOptions({
    queryKey: keys.auth.detail("notifications"),
    queryFn: () => unwrap(api.GET("/api/v1/me/notifications")),
  }),
);

import { queryOptions } from "@tanstack/react-query";
import { ApiError, api, type Schemas, setCsrfToken, unwrap } from "./api/client";
import { rememberViewer } from "./early-paths";

export type Session = Schemas["Session"];
export type SessionUser = Schemas["User"];

/** The signed-in person, or null when there is no session (401). */
export const sessionQuery = queryOptions({
  queryKey: ["session"],
  queryFn: async (): Promise<Session | null> => {
    try {
      const session = await unwrap(api.GET("/api/v1/auth/session"));
      setCsrfToken(session.csrf_token);
      rememberViewer(session.user.id);
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
});

/** Where sign-in sends a person back to: a path of this console only (never another origin). */
export function safeReturnTo(value: unknown): string {
  return typeof value === "string" && value.startsWith("/") && !value.startsWith("//") ? value : "/";
}

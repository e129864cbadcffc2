import createClient, { type Middleware } from "openapi-fetch";
import { forgetEarly, takeEarly } from "./early";
import { apiErrorOf, OfflineError } from "./errors";
import type { paths } from "./schema";

let csrfToken: string | undefined;
/** The session's CSRF token (from sign-in or GET /auth/session), sent with every unsafe request. */
export function setCsrfToken(token: string | undefined): void {
  csrfToken = token;
}

const listeners = new Set<() => void>();
/** Called when a request that needs a session gets 401: the session ended (expiry, sign-out elsewhere). */
export function onSessionLost(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * What a write sends besides its own headers: the session's CSRF token. Early answers not taken are
 * dropped first (a 401 from before a sign-in is never handed out after it).
 */
export function writeHeaders(): Record<string, string> {
  forgetEarly();
  return csrfToken ? { "X-CSRF-Token": csrfToken } : {};
}

/** Hears every answer: a 401 outside /auth/ means the session ended. */
export function heardAnswer(path: string, status: number): void {
  if (status === 401 && !path.startsWith("/api/v1/auth/")) for (const listener of listeners) listener();
}

const session: Middleware = {
  onRequest({ request }) {
    if (!SAFE.has(request.method))
      for (const [name, value] of Object.entries(writeHeaders())) request.headers.set(name, value);
    return request;
  },
  onResponse({ request, response }) {
    heardAnswer(new URL(request.url).pathname, response.status);
    return response;
  },
};

/**
 * A GET that boot.ts already started takes its answer, whatever it is (asking again for a 401 would
 * count twice against the address's failed authentications); anything else goes to the network.
 * Writes drop the early answers not taken (the session middleware below): a 401 from before a
 * sign-in is never handed out after it.
 */
function fetchOrTakeEarly(request: Request): Promise<Response> {
  const url = new URL(request.url);
  const early = request.method === "GET" ? takeEarly(url.pathname + url.search) : undefined;
  return (early ?? globalThis.fetch(request)).catch((cause: unknown) => {
    // An aborted request (a query cancelled, a page left) stays what it is; no answer at all is "offline".
    if (cause instanceof DOMException && cause.name === "AbortError") throw cause;
    throw new OfflineError(cause);
  });
}

export const api = createClient<paths>({
  baseUrl: globalThis.location?.origin ?? "",
  fetch: fetchOrTakeEarly,
  // As the document declares the enum lists (`style: form, explode: false`): `status=a,b`.
  querySerializer: { array: { style: "form", explode: false } },
});
api.use(session);

interface Result<T> {
  data?: T;
  error?: unknown;
  response: Response;
}

/** The data of a call, or an ApiError carrying the contract's error body and the Request-Id. */
export async function unwrap<T>(call: Promise<Result<T>>): Promise<T> {
  const { data, error, response } = await call;
  if (response.ok) return data as T;
  throw await apiErrorOf(response, error ?? {});
}

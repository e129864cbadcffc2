import { decryptSecret, encryptSecret } from "../webhooks/index.js";

/** The cookie carrying one sign-in's state across the provider round trip; sent to the callback only. */
export const STATE_COOKIE = "cts_oidc";
export const CALLBACK_PATH = "/api/v1/auth/oidc/callback";
/** How long a person has at the provider before the sign-in must start again. */
export const STATE_TTL_MS = 10 * 60_000;

const PURPOSE = "cts-oidc-state";

/** What the callback needs from the start: never readable by the browser (AES-256-GCM, the deployment's key). */
export interface SignInState {
  state: string;
  nonce: string;
  codeVerifier: string;
  /** A same-origin path to land on after signing in. */
  returnTo: string | undefined;
  expiresAt: number;
}

function attributes(secure: boolean): string {
  return `; HttpOnly; SameSite=Lax; Path=${CALLBACK_PATH}${secure ? "; Secure" : ""}`;
}

/**
 * Set-Cookie for a new sign-in: sealed, so neither the browser nor anyone who copies the cookie reads
 * the PKCE verifier or the nonce, and any change to it fails authentication.
 */
export function stateCookie(key: Buffer, value: SignInState, secure: boolean): string {
  const sealed = encryptSecret(key, JSON.stringify({ p: PURPOSE, ...value }));
  return `${STATE_COOKIE}=${sealed}; Max-Age=${STATE_TTL_MS / 1000}${attributes(secure)}`;
}

/** Set-Cookie that spends the state: the callback answers with it whatever it decides. */
export function clearedStateCookie(secure: boolean): string {
  return `${STATE_COOKIE}=; Max-Age=0${attributes(secure)}`;
}

const SEALED = /^v1:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+:[A-Za-z0-9+/=]+$/;

function cookieValue(header: string | undefined): string | undefined {
  const values = (header ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${STATE_COOKIE}=`))
    .map((pair) => pair.slice(STATE_COOKIE.length + 1));
  return values.length === 1 && SEALED.test(values[0]!) ? values[0] : undefined;
}

/**
 * The sign-in state the request's cookie seals, if it is ours, intact, unexpired and for this `state`
 * parameter; undefined for anything else (missing, altered, another key, expired, another sign-in).
 */
export function openState(
  key: Buffer,
  cookieHeader: string | undefined,
  state: unknown,
  now: Date,
): SignInState | undefined {
  const sealed = cookieValue(cookieHeader);
  if (sealed === undefined || typeof state !== "string") return undefined;
  let value: Partial<SignInState> & { p?: unknown };
  try {
    value = JSON.parse(decryptSecret(key, sealed));
  } catch {
    return undefined;
  }
  const { p, ...rest } = value;
  if (p !== PURPOSE || typeof rest.expiresAt !== "number" || rest.expiresAt <= now.getTime()) return undefined;
  if (typeof rest.state !== "string" || rest.state !== state) return undefined;
  if (typeof rest.nonce !== "string" || typeof rest.codeVerifier !== "string") return undefined;
  return rest as SignInState;
}

/**
 * `return_to`: a path on this service only ("/deals?x=1"), never another origin ("//evil.example",
 * "/\\evil.example", "https://…"), so the sign-in cannot be used as an open redirect.
 */
export function isLocalPath(value: string): boolean {
  if (!value.startsWith("/") || value.startsWith("//")) return false;
  // Printable ASCII only: anything else must arrive percent-encoded, or it could not go into the
  // Location header (Node refuses it after the session is made: a 500 instead of a sign-in).
  if (value.includes("\\") || [...value].some((c) => c.charCodeAt(0) <= 0x20 || c.charCodeAt(0) >= 0x7f)) {
    return false;
  }
  const resolved = new URL(value, "http://origin.invalid");
  return resolved.origin === "http://origin.invalid";
}

/** The session cookie (API.md §11): HttpOnly, SameSite=Lax, Path=/, Secure when the origin is https. */
export const SESSION_COOKIE = "cts_session";

function attributes(secure: boolean): string {
  return `; HttpOnly; SameSite=Lax; Path=/${secure ? "; Secure" : ""}`;
}

/** The Set-Cookie value that hands the browser a new session, kept until its absolute timeout. */
export function sessionCookie(token: string, expiresAt: Date, secure: boolean): string {
  return `${SESSION_COOKIE}=${token}; Expires=${expiresAt.toUTCString()}${attributes(secure)}`;
}

/** The Set-Cookie value that makes the browser forget the session. */
export function clearedSessionCookie(secure: boolean): string {
  return `${SESSION_COOKIE}=; Expires=Thu, 01 Jan 1970 00:00:00 GMT${attributes(secure)}`;
}

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The session token a Cookie header carries, when it carries exactly one well-formed one. */
export function sessionTokenOf(cookieHeader: string | undefined): string | undefined {
  if (!cookieHeader) return undefined;
  const values = cookieHeader
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => pair.startsWith(`${SESSION_COOKIE}=`))
    .map((pair) => pair.slice(SESSION_COOKIE.length + 1));
  return values.length === 1 && TOKEN.test(values[0]!) ? values[0] : undefined;
}

/** Whether a Cookie header carries a session cookie at all (well-formed or not): a sign-in was attempted. */
export function hasSessionCookie(cookieHeader: string | undefined): boolean {
  if (!cookieHeader) return false;
  return cookieHeader.split(";").some((pair) => pair.trim().startsWith(`${SESSION_COOKIE}=`));
}

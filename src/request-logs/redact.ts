/**
 * What a request target looks like in logs (stdout and GET /request-logs): secrets a client put in
 * the URL are replaced by [REDACTED] — the value of a secret-looking query parameter, and any part
 * holding something in the API key (`cts_<env>_…`) or webhook secret (`whsec_…`) format.
 */

const REDACTED = "[REDACTED]";

/** Parameter names (lower case, `-` as `_`) whose value is a credential whatever it looks like. */
const SECRET_NAMES = new Set([
  "key",
  "apikey",
  "token",
  "auth",
  "authorization",
  "bearer",
  "secret",
  "password",
  "passwd",
  "pwd",
  "signature",
  "sig",
  "session",
  "credential",
  "credentials",
  "jwt",
  // An OpenID Connect callback's authorization code and state (useless without the PKCE verifier and
  // the sealed cookie, but credentials all the same).
  "code",
  "state",
]);
const SECRET_SUFFIX = /_(key|apikey|token|secret|password|passwd|signature|credentials?)$/;

/** An API key (`cts_live_…`) or a webhook secret (`whsec_…`), anywhere in a decoded text. */
const SECRET_VALUE = /cts_[a-z][a-z0-9]{1,15}_[0-9A-Za-z]|whsec_[0-9A-Za-z+/=]/;

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function isSecretName(rawName: string): boolean {
  const name = decoded(rawName).toLowerCase().replace(/-/g, "_");
  return SECRET_NAMES.has(name) || SECRET_SUFFIX.test(name);
}

function redactParam(param: string): string {
  const eq = param.indexOf("=");
  if (eq === -1) return SECRET_VALUE.test(decoded(param)) ? REDACTED : param;
  const name = param.slice(0, eq);
  const value = param.slice(eq + 1);
  const secret = isSecretName(name) || SECRET_VALUE.test(decoded(value));
  return `${SECRET_VALUE.test(decoded(name)) ? REDACTED : name}=${secret ? REDACTED : value}`;
}

/** The path and query string `url` with every secret in it replaced by [REDACTED]. */
export function redactTarget(url: string): string {
  const q = url.indexOf("?");
  // Most targets: no query, nothing encoded, no secret anywhere in them. Each segment is then its own
  // decoded text, and a secret in one would match the whole path too, so the path is already safe.
  if (q === -1 && !url.includes("%") && !url.includes("+") && !SECRET_VALUE.test(url)) return url;
  const path = q === -1 ? url : url.slice(0, q);
  const safePath = path
    .split("/")
    .map((segment) => (SECRET_VALUE.test(decoded(segment)) ? REDACTED : segment))
    .join("/");
  if (q === -1) return safePath;
  const query = url.slice(q + 1);
  return `${safePath}?${query.split("&").map(redactParam).join("&")}`;
}

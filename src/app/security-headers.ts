import type { FastifyReply } from "fastify";
import helmet, { type HelmetOptions } from "helmet";

/**
 * Headers on every response (#13.7, OWASP's REST cheat sheet): JSON is never sniffed, framed, or sent
 * a referrer, and a CSP that allows nothing. HSTS is the pipeline's (only over TLS).
 */
const OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      frameAncestors: ["'none'"],
      baseUri: ["'none'"],
      formAction: ["'none'"],
    },
  },
  frameguard: { action: "deny" },
  referrerPolicy: { policy: "no-referrer" },
  hsts: false,
  // The API is called cross-origin by design (server-side clients, Scalar's own page is same-origin).
  crossOriginResourcePolicy: false,
};

/**
 * The headers helmet writes for OPTIONS, asked of helmet once at start: helmet decides the values, one
 * synchronous hook copies them onto each reply (@fastify/helmet ran helmet's middleware chain, CSP
 * included, on every request).
 */
function helmetHeaders(options: HelmetOptions): Readonly<Record<string, string>> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader: (name: string, value: unknown) => {
      headers[name] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name];
    },
  };
  helmet(options)({} as never, res as never, () => {});
  return Object.freeze(headers);
}

export const SECURITY_HEADERS = helmetHeaders(OPTIONS);

/** SECURITY_HEADERS as Fastify keeps a reply's headers (names lower-cased, as `Reply.header` stores them). */
const SECURITY_BLOCK: Readonly<Record<string, string>> = Object.freeze(
  Object.fromEntries(Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value])),
);

let headerStore: symbol | null | undefined;

/**
 * Where Fastify keeps a reply's headers (the object `writeHead` is given; `Reply.header` lower-cases the
 * name and stores it there): found once on the first reply, by the symbol's description. Null if a
 * Fastify version keeps them elsewhere (`writeSecurityHeaders` then sets them one at a time).
 */
export function replyHeaderStore(reply: FastifyReply): symbol | null {
  headerStore ??= Object.getOwnPropertySymbols(reply).find((s) => s.description === "fastify.reply.headers") ?? null;
  return headerStore;
}

/**
 * The ten security headers on a reply in one step (one `Object.assign` of a precomputed block) rather
 * than ten `Reply.header` calls: the same names, values and order that `reply.headers(SECURITY_HEADERS)`
 * writes (issue #35; none of them is Set-Cookie, the one name `Reply.header` appends to). Run first on
 * every request (app/build.ts).
 */
export function writeSecurityHeaders(reply: FastifyReply): void {
  const store = replyHeaderStore(reply);
  if (store) Object.assign((reply as unknown as Record<symbol, Record<string, unknown>>)[store]!, SECURITY_BLOCK);
  else reply.headers(SECURITY_HEADERS);
}

/** The ones written by hand on the few replies no hook reaches. */
export const STATIC_SECURITY_HEADERS: Record<string, string> = {
  "Content-Security-Policy": SECURITY_HEADERS["Content-Security-Policy"]!,
  "X-Content-Type-Options": "nosniff",
  "X-Frame-Options": "DENY",
  "Referrer-Policy": "no-referrer",
};

/**
 * The docs page's CSP: its own script and the one inline bootstrap script (by hash), styles inline
 * (the bundle injects a <style> element and Vue writes style attributes), data: images and fonts,
 * fetches to this origin only (the OpenAPI document, "Test request"). Still no framing.
 */
export function docsCsp(inlineScriptHashes: string[]): string {
  const directives: Record<string, string[]> = {
    "default-src": ["'none'"],
    "script-src": ["'self'", ...inlineScriptHashes.map((h) => `'${h}'`)],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
    "manifest-src": ["'self'"],
    "frame-ancestors": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
  };
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(" ")}`)
    .join(";");
}

/**
 * The console's CSP: scripts and styles from this origin only (no inline script; the component kit
 * sets style attributes and one <style> element of CSS variables, hence inline styles), API calls to
 * this origin, no framing, forms posting nowhere else.
 */
export function consoleCsp(): string {
  return [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "manifest-src 'self'",
    "frame-ancestors 'none'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join(";");
}

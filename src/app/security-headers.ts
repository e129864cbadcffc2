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

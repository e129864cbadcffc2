/**
 * Headers on every response (#13.7, OWASP's REST cheat sheet): JSON is never sniffed, framed, or sent
 * a referrer, and a CSP that allows nothing. HSTS is the pipeline's (only over TLS). These are the
 * values helmet 8 writes for the options it was given here (a CSP of `'none'`s, frameguard deny,
 * no-referrer, no HSTS, no Cross-Origin-Resource-Policy: the API is called cross-origin by design),
 * set once per reply: @fastify/helmet built a new helmet and parsed the CSP on every request.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "Content-Security-Policy": "default-src 'none';frame-ancestors 'none';base-uri 'none';form-action 'none'",
  "Cross-Origin-Opener-Policy": "same-origin",
  "Origin-Agent-Cluster": "?1",
  "Referrer-Policy": "no-referrer",
  "X-Content-Type-Options": "nosniff",
  "X-DNS-Prefetch-Control": "off",
  "X-Download-Options": "noopen",
  "X-Frame-Options": "DENY",
  "X-Permitted-Cross-Domain-Policies": "none",
  "X-XSS-Protection": "0",
});

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

import type { FastifyRequest } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";

const METHODS: HTTPMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Path parameters may be as long as any id (255) and then some, so a long id is a 404/422, not a router 400. */
export const MAX_PARAM_LENGTH = 16_384;

/**
 * 404 for unknown paths, 405 with `Allow` for a known path and the wrong method. Fastify answers
 * both with its not-found handler, so a shadow router of every declared route tells them apart. The
 * answer is given right after admission (key, rate limit), before any body is parsed or checked, so an
 * unknown route is 404/405 whatever its body (API.md §2's order) and never reaches idempotency.
 */
export function registerNotFound(app: App): void {
  const known = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH });
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !known.hasRoute(method as HTTPMethod, route.url)) {
        known.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });
  const missing = (req: FastifyRequest): AppError => {
    const path = req.url.split("?")[0] ?? "/";
    const allowed = METHODS.filter((m) => known.find(m, path) !== null);
    if (allowed.length === 0) return new AppError("not_found", `No route ${req.method} ${path}`);
    return new AppError(
      "method_not_allowed",
      `${req.method} is not allowed on ${path}; use ${allowed.join(", ")}`,
      undefined,
      {
        Allow: allowed.join(", "),
      },
    );
  };
  app.addHook("onRequest", async (req) => {
    if (req.is404) throw missing(req);
  });
  app.setNotFoundHandler(async (req) => {
    throw missing(req);
  });
}

import type { FastifyReply, FastifyRequest } from "fastify";
import FindMyWay, { type HTTPMethod } from "find-my-way";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";

const METHODS: HTTPMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/** Path parameters may be as long as any id (255) and then some, so a long id is a 404/422, not a router 400. */
export const MAX_PARAM_LENGTH = 16_384;

/** Every declared route, by method (a shadow of Fastify's router): which methods a path allows. */
export interface KnownRoutes {
  allowed(path: string): HTTPMethod[];
}

/** Collects the routes declared after it (call it before any route); `allowed` reads them at request time. */
export function knownRoutes(app: App): KnownRoutes {
  const known = FindMyWay({ ignoreTrailingSlash: false, maxParamLength: MAX_PARAM_LENGTH });
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !known.hasRoute(method as HTTPMethod, route.url)) {
        known.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });
  return { allowed: (path) => METHODS.filter((m) => known.find(m, path) !== null) };
}

/** What answers an unknown path a browser navigates to, instead of the API's 404 (the console, console.ts). */
export interface PageFallback {
  /** Whether this unmatched request is a page a person opened (the pipeline then asks for no key). */
  takes(req: FastifyRequest): boolean;
  send(req: FastifyRequest, reply: FastifyReply): Promise<unknown>;
}

const pathOf = (req: FastifyRequest) => req.url.split("?")[0] ?? "/";

/**
 * 404 for unknown paths, 405 with `Allow` for a known path and the wrong method. Fastify answers
 * both with its not-found handler, so a shadow router of every declared route tells them apart. The
 * answer is given right after admission (key, rate limit), before any body is parsed or checked, so an
 * unknown route is 404/405 whatever its body (API.md §2's order) and never reaches idempotency.
 * A page a browser opens that no route answers (`fallback.takes`) gets the console instead, which draws
 * its own not-found page.
 */
export function registerNotFound(app: App, known: KnownRoutes, fallback?: PageFallback): void {
  const missing = (req: FastifyRequest): AppError => {
    const path = pathOf(req);
    const allowed = known.allowed(path);
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
  // Synchronous (a callback hook): it runs on every request, and answers only the unmatched ones.
  app.addHook("onRequest", (req, _reply, done) => {
    done(req.is404 && !fallback?.takes(req) ? missing(req) : undefined);
  });
  app.setNotFoundHandler(async (req, reply) => {
    if (fallback?.takes(req)) return fallback.send(req, reply);
    throw missing(req);
  });
}

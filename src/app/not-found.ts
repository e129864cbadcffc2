import FindMyWay, { type HTTPMethod } from "find-my-way";
import { AppError } from "../errors.js";
import type { App } from "../http/types.js";

const METHODS: HTTPMethod[] = ["GET", "POST", "PUT", "PATCH", "DELETE"];

/**
 * 404 for unknown paths, 405 with `Allow` for a known path and the wrong method. Fastify answers
 * both with its not-found handler, so a shadow router of every declared route tells them apart.
 */
export function registerNotFound(app: App): void {
  const known = FindMyWay({ ignoreTrailingSlash: false });
  app.addHook("onRoute", (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (METHODS.includes(method as HTTPMethod) && !known.hasRoute(method as HTTPMethod, route.url)) {
        known.on(method as HTTPMethod, route.url, () => {});
      }
    }
  });
  app.setNotFoundHandler(async (req) => {
    const path = req.url.split("?")[0] ?? "/";
    const allowed = METHODS.filter((m) => known.find(m, path) !== null);
    if (allowed.length > 0) {
      throw new AppError(
        "method_not_allowed",
        `${req.method} is not allowed on ${path}; use ${allowed.join(", ")}`,
        undefined,
        {
          Allow: allowed.join(", "),
        },
      );
    }
    throw new AppError("not_found", `No route ${req.method} ${path}`);
  });
}
